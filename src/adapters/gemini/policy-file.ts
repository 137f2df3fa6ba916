import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isolatedHome } from '../agent-process.js';
import type { AdapterRunConfig } from '../types.js';
import { geminiPolicyRules, geminiPolicyToml } from './permissions.js';

/** Wave's policy file, in the attempt's home: the one part of the attempt folder a sandbox shows the step. */
export function geminiPolicyPath(config: Pick<AdapterRunConfig, 'attemptDir'>): string {
  return join(isolatedHome(config), 'wave-policy.toml');
}

/** The persona's permissions as Gemini policy rules for this attempt. */
function attemptRules(config: AdapterRunConfig) {
  return geminiPolicyRules(config.persona?.allowedTools ?? [], config.persona?.deniedTools ?? [], (config.skills?.length ?? 0) > 0, config.workspace);
}

/** Writes the policy file when the persona restricts anything; true when it did. */
export async function writeGeminiPolicy(config: AdapterRunConfig): Promise<boolean> {
  const rules = attemptRules(config);
  if (rules.length === 0) return false;
  await mkdir(isolatedHome(config), { recursive: true });
  await writeFile(geminiPolicyPath(config), geminiPolicyToml(rules));
  return true;
}

/**
 * `--policy` with Wave's file when the persona restricts anything. A `--policy` replaces Gemini's own user policy
 * folder, so on a shared config home that folder is named too, keeping the user's rules.
 */
export function geminiPolicyArgs(config: AdapterRunConfig): string[] {
  if (attemptRules(config).length === 0) return [];
  const home = config.env.GEMINI_CLI_HOME ?? config.env.HOME;
  const userPolicies = !config.adapter.isolated && home ? join(home, '.gemini', 'policies') : undefined;
  return ['--policy', geminiPolicyPath(config), ...(userPolicies && existsSync(userPolicies) ? ['--policy', userPolicies] : [])];
}
