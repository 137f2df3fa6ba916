import { AGENT_CLI_TYPES, isAgentCliType, type AdapterType, type AgentCliType, type ResolvedAdapter } from '../core/resolved-adapter.js';
import type { AgentCliDescriptor } from './agent-cli.js';
import { claudeCli } from './claude/descriptor.js';
import { codexCli } from './codex/descriptor.js';
import { cursorCli } from './cursor/descriptor.js';
import { geminiCli } from './gemini/descriptor.js';
import { openCodeCli } from './opencode/descriptor.js';
import { pluginDefinitionOf } from './plugin/plugin-definition.js';
import { pluginDescriptor } from './plugin/plugin-descriptor.js';

/** The descriptor of every agent CLI, by its type: a CLI missing here, or filed under another type, is a type error. */
export const AGENT_CLI_OF: { readonly [Type in AgentCliType]: AgentCliDescriptor<Type> } = {
  claude: claudeCli,
  opencode: openCodeCli,
  codex: codexCli,
  gemini: geminiCli,
  cursor: cursorCli,
};

/** Every agent CLI's descriptor, in the order of AGENT_CLI_TYPES. */
export const AGENT_CLIS: readonly AgentCliDescriptor[] = AGENT_CLI_TYPES.map((type) => AGENT_CLI_OF[type]);

/** The descriptor of an adapter type's CLI; undefined for the runners that are no agent CLI (process, llm). */
export function agentCliOf(type: AdapterType): AgentCliDescriptor | undefined {
  return isAgentCliType(type) ? AGENT_CLI_OF[type] : undefined;
}

/** The descriptor of an adapter's CLI: its plugin's (undefined when the module is unusable), else its type's built-in one. */
export function agentCliOfAdapter(adapter: Pick<ResolvedAdapter, 'name' | 'type' | 'module'>): AgentCliDescriptor<AgentCliType | 'plugin'> | undefined {
  if (adapter.type !== 'plugin') return agentCliOf(adapter.type);
  const found = pluginDefinitionOf(adapter);
  return found.ok ? pluginDescriptor(found.definition) : undefined;
}

/** A table of one descriptor field, by type, for the CLIs where it is not null. */
function tableOf<Value>(value: (cli: AgentCliDescriptor) => Value | null): Readonly<Partial<Record<AdapterType, Value>>> {
  return Object.freeze(
    Object.fromEntries(
      AGENT_CLIS.flatMap((cli) => {
        const found = value(cli);
        return found === null ? [] : [[cli.type, found] as const];
      }),
    ),
  );
}

/** What to do when an agent CLI has no credentials, or had them refused: its own login command, or a key the step sees. */
export const LOGIN_HINTS: Readonly<Partial<Record<AdapterType, string>>> = tableOf((cli) => cli.loginHint);

/** Where each agent CLI reads project skills (`<folder>/<name>/SKILL.md`), relative to its working directory. */
export const CLI_SKILLS_FOLDERS: Readonly<Partial<Record<AdapterType, string>>> = tableOf((cli) => cli.skillsFolder);

/** The configuration files each adapter writes into the workspace for its CLI. */
export const ADAPTER_CONFIG_FILES: Readonly<Partial<Record<AdapterType, readonly string[]>>> = tableOf((cli) => cli.configFiles);

/** Where each CLI that has commands gets the command files of the pipeline's required skills. */
export const CLI_COMMANDS_FOLDERS: Readonly<Partial<Record<AdapterType, string>>> = tableOf((cli) => cli.skillCommandsFolder);

/** The instruction files Wave writes for some CLI, recognised in any workspace by their first line. */
export const INSTRUCTION_FILES: ReadonlySet<string> = new Set(AGENT_CLIS.flatMap((cli) => (cli.instructionsFile === null ? [] : [cli.instructionsFile])));

/** The npm package of each agent CLI that has one, by type (alphabetical, as the Action's `install-agents` lists them; the
 * types are ASCII, and localeCompare would load the locale's collation into every start-up). */
export const AGENT_PACKAGES: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(AGENT_CLIS.flatMap((cli) => ('package' in cli.install ? [[cli.type, cli.install.package] as const] : [])).sort(([a], [b]) => (a < b ? -1 : 1))),
);

/** The binary an adapter of `type` runs when it names none: its CLI's own, else the type's name. */
export function defaultBinaryOf(type: AdapterType): string {
  return agentCliOf(type)?.binary ?? type;
}
