import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEY_VARIABLES, modelEndpoints } from '../../src/adapters/access-mode.js';
import {
  ADAPTER_CONFIG_FILES,
  AGENT_CLI_OF,
  AGENT_CLIS,
  AGENT_PACKAGES,
  agentCliOf,
  CLI_COMMANDS_FOLDERS,
  CLI_SKILLS_FOLDERS,
  defaultBinaryOf,
  INSTRUCTION_FILES,
  LOGIN_HINTS,
} from '../../src/adapters/agent-clis.js';
import { defaultRegistry } from '../../src/adapters/registry.js';
import { temperatureErrors } from '../../src/config/checks/temperature-check.js';
import type { Locator } from '../../src/config/load/locator.js';
import { adapterTypeOf } from '../../src/config/schema/adapter-type.js';
import { AGENT_CLI_MODELS } from '../../src/core/models/agent-cli-models.js';
import { PROVIDER_OF } from '../../src/core/models/attempt-cost.js';
import { modelForCli, WAVE_TIER_DEFAULTS } from '../../src/core/models/model-tiers.js';
import { ADAPTER_TYPES, AGENT_CLI_TYPES, type ResolvedAdapter } from '../../src/core/resolved-adapter.js';
import { isWaveOwnedPath } from '../../src/engine/workspace/wave-owned-paths.js';

const NOWHERE = { file: 'wave.yaml' };
const LOCATOR: Locator = { locate: () => NOWHERE, locateKey: () => NOWHERE };

/** The errors of a manifest whose one persona sets a temperature on an adapter of `type`. */
const temperatureRefusals = (type: string, isolated: boolean) =>
  temperatureErrors({ adapters: { a: { type, isolated } }, personas: { p: { adapter: 'a', temperature: 0.2 } } }, '.', LOCATOR);

const adapterOf = (type: ResolvedAdapter['type'], env: Record<string, string> = {}): ResolvedAdapter => ({ name: type, type, env, isolated: false });

describe('the agent CLI descriptors', () => {
  it('give every agent CLI type one descriptor, filed under its own type, and every adapter type but process, llm, browser and plugin (whose descriptor its module gives) is a built-in CLI', () => {
    expect(Object.keys(AGENT_CLI_OF).sort()).toEqual([...AGENT_CLI_TYPES].sort());
    for (const type of AGENT_CLI_TYPES) expect(AGENT_CLI_OF[type].type).toBe(type);
    expect(AGENT_CLIS.map((cli) => cli.type)).toEqual([...AGENT_CLI_TYPES]);
    expect(ADAPTER_TYPES.filter((type) => agentCliOf(type) === undefined)).toEqual(['process', 'llm', 'browser', 'plugin']);
  });

  it.each(AGENT_CLIS.map((cli) => [cli.type, cli] as const))('%s: every table about CLIs says what its descriptor says', async (type, cli) => {
    expect(agentCliOf(type)).toBe(cli);
    expect(defaultBinaryOf(type)).toBe(cli.binary);
    expect(AGENT_PACKAGES[type]).toBe('package' in cli.install ? cli.install.package : undefined);
    expect(KEY_VARIABLES[type]).toEqual(cli.keyVariables);
    expect(LOGIN_HINTS[type]).toBe(cli.loginHint);
    expect(CLI_SKILLS_FOLDERS[type]).toBe(cli.skillsFolder ?? undefined);
    expect(CLI_COMMANDS_FOLDERS[type]).toBe(cli.skillCommandsFolder ?? undefined);
    expect(ADAPTER_CONFIG_FILES[type]).toEqual(cli.configFiles);
    if (cli.instructionsFile !== null) expect(INSTRUCTION_FILES.has(cli.instructionsFile)).toBe(true);
    expect(modelEndpoints(adapterOf(type), {})).toEqual(cli.endpoint.fallback === null ? [] : [cli.endpoint.fallback]);
    for (const variable of cli.endpoint.variables) expect(modelEndpoints(adapterOf(type, { [variable]: 'http://127.0.0.1:9' }), {})).toEqual(['http://127.0.0.1:9']);
    expect(adapterTypeOf(type, {})).toBe(type);
    expect(defaultRegistry().resolve(type).type).toBe(type);
    const workspace = mkdtempSync(join(tmpdir(), 'wave-agent-clis-'));
    for (const file of cli.configFiles) expect(await isWaveOwnedPath(workspace, file, type)).toBe(true);
    rmSync(workspace, { recursive: true });
  });

  it.each(AGENT_CLIS.map((cli) => [cli.type, cli] as const))("%s: the core's model tables say what its descriptor's models say", (type, cli) => {
    expect(cli.models).toBe(AGENT_CLI_MODELS[type]);
    const { tierDefaults, defaultMeansNone, priceProvider, temperature } = cli.models;
    expect(WAVE_TIER_DEFAULTS[type]).toEqual(Object.keys(tierDefaults).length > 0 ? tierDefaults : undefined);
    expect(modelForCli('default', type)).toBe(defaultMeansNone ? undefined : 'default');
    expect(PROVIDER_OF[type]).toBe(priceProvider ?? undefined);
    expect([temperatureRefusals(type, false).length === 0, temperatureRefusals(type, true).length === 0]).toEqual(
      { always: [true, true], isolated: [false, true], never: [false, false] }[temperature],
    );
  });

  it('leave process and llm adapters out of the tables of CLIs', () => {
    for (const table of [KEY_VARIABLES, LOGIN_HINTS, CLI_SKILLS_FOLDERS, ADAPTER_CONFIG_FILES, WAVE_TIER_DEFAULTS, PROVIDER_OF]) {
      expect(Object.keys(table).filter((type) => type === 'process' || type === 'llm')).toEqual([]);
    }
    expect(defaultBinaryOf('process')).toBe('process');
    expect(Object.keys(AGENT_PACKAGES)).toEqual(['claude', 'codex', 'gemini', 'opencode']);
  });
});
