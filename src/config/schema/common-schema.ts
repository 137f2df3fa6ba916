import { z } from 'zod';

/** A duration such as `90s`, `5m`, `1h30m` or `250ms`; a bare number means seconds. */
export const Duration = z
  .union([z.string().regex(/^(\d+(\.\d+)?(ms|s|m|h))+$/, 'expected a duration such as 30s, 5m or 1h30m'), z.number().nonnegative()])
  .describe('A duration: 250ms, 30s, 5m, 1h30m, or a number of seconds.');

export const StringList = z.array(z.string());

export const EnvMap = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).describe('Environment variables given to the process.');

export const Permissions = z
  .strictObject({
    allowed_tools: StringList.optional().describe('Tools the agent may use, in the CLI\'s own syntax (e.g. "Bash(git *)", "Read").'),
    deny: StringList.optional().describe('Tools the agent must not use; enforced by the agent CLI itself.'),
  })
  .describe("Tool permissions, written into the agent CLI's own configuration.");

/** Converts a Duration value to milliseconds. */
export function durationMs(value: string | number): number {
  if (typeof value === 'number') return value * 1000;
  const unit: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  for (const [, amount, , suffix] of value.matchAll(/(\d+(\.\d+)?)(ms|s|m|h)/g)) {
    total += Number(amount) * unit[suffix!]!;
  }
  return total;
}
