import { mkdir } from 'node:fs/promises';
import { attemptHome } from '../../sandbox/types.js';
import type { AgentCli, AgentCliDescriptor, CliLogin } from '../agent-cli.js';
import { resumedSession } from '../session.js';
import { installStepSkills } from '../skills.js';
import type { AdapterRunConfig } from '../types.js';
import type { AdapterDefinition } from './define-adapter.js';

/** A CLI without a login of its own that Wave could show a sandboxed step. */
const NO_LOGIN: CliLogin = { files: () => [], variables: {}, hosts: [] };

/** The built-in descriptor a plugin definition stands for: its fields, with the documented defaults for those it leaves out. */
export function pluginDescriptor(definition: AdapterDefinition): AgentCliDescriptor<'plugin'> {
  return {
    type: 'plugin',
    binary: definition.binary,
    install: definition.install ?? { command: `see the ${definition.name} documentation` },
    keyVariables: definition.keyVariables ?? [],
    login: definition.login ?? NO_LOGIN,
    endpoint: definition.endpoint ?? { variables: [], fallback: null },
    loginStatus: definition.loginStatus ?? null,
    loginHint: definition.loginHint ?? `Give ${definition.name} the credentials its documentation names, in a variable the step sees (runtime.sandbox.env_passthrough).`,
    configFiles: definition.configFiles ?? [],
    instructionsFile: definition.instructionsFile ?? null,
    skillsFolder: definition.skillsFolder ?? null,
    skillCommandsFolder: definition.skillCommandsFolder ?? null,
    models: { tierDefaults: {}, defaultMeansNone: false, priceProvider: null, temperature: 'never', ...definition.models },
    runner: pluginCli(definition),
  };
}

/** The runner pieces of a plugin: its own prepare and stream, with the isolated home, skills and resume arguments Wave adds. */
function pluginCli(definition: AdapterDefinition): AgentCli {
  return {
    async prepare(config: AdapterRunConfig) {
      if (config.adapter.isolated) await mkdir(attemptHome(config.attemptDir), { recursive: true });
      if (definition.skillsFolder) await installStepSkills(definition.skillsFolder, config.skills, config.workspace);
      const invocation = await definition.prepare(config);
      const session = definition.resumeArgs ? resumedSession(config) : undefined;
      return session && definition.resumeArgs ? { ...invocation, args: [...invocation.args, ...definition.resumeArgs(session)] } : invocation;
    },
    stream: (config: AdapterRunConfig) => definition.stream(config),
    ...(definition.refusedResume ? { refusedResume: definition.refusedResume } : {}),
    ...(definition.unsavedSession ? { unsavedSession: definition.unsavedSession } : {}),
  };
}
