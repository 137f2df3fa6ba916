import { describe, expect, it } from 'vitest';
import type { ResolvedAdapter, ResolvedPersona } from '../../src/core/resolved-adapter.js';
import { sandboxedSpawn } from '../../src/engine/attempt/sandboxed-spawn.js';
import type { RunContext } from '../../src/engine/run/context.js';
import type { AttemptStep } from '../../src/plan/plan-types.js';
import type { SandboxScope } from '../../src/sandbox/types.js';

const persona = (name: string, domains: string[]): ResolvedPersona => ({ name, systemPrompt: '', allowedTools: [], deniedTools: [], allowedDomains: domains, skills: [] });
const adapter: ResolvedAdapter = { name: 'critic', type: 'llm', env: {}, isolated: true, baseUrl: 'http://127.0.0.1:9/v1' };

/** The sandbox scope an attempt of the step gets, the persona it runs as given or not. */
async function scopeOf(runAs?: ResolvedPersona): Promise<SandboxScope> {
  let scope: SandboxScope | undefined;
  const sandbox = { backend: 'bubblewrap', spawn: async (_spec: unknown, given: SandboxScope) => ((scope = given), { exitCode: 0 }), close: async () => {} };
  const context = {
    sandbox,
    plan: { runtime: { sandbox: { defaultAllowedDomains: ['default.example'] } } },
    store: { record: { id: 'run-1' }, dir: '/tmp/run-1' },
  } as unknown as RunContext;
  const step = { id: 'work', persona: persona('writer', ['writer.example']) } as unknown as AttemptStep;
  const spawn = sandboxedSpawn(context, step, adapter, { attempt: 1, workspace: '/tmp/ws', attemptDir: '/tmp/run-1/a', env: {}, persona: runAs });
  await spawn!({ command: 'true', args: [] } as never, new AbortController().signal);
  return scope!;
}

describe("a review's sandbox", () => {
  it("lets the reviewer reach its own persona's allowed_domains, not the step persona's", async () => {
    expect((await scopeOf(persona('critic', ['critic.example']))).allowedDomains).toEqual(['default.example', 'critic.example']);
    expect((await scopeOf()).allowedDomains).toEqual(['default.example', 'writer.example']);
  });
});
