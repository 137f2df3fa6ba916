import type { Command } from 'commander';

/** Each command file exports a function that adds its verb to the program. */
export type RegisterCommand = (program: Command) => void;

/** The verbs one build of the CLI holds, each loaded on demand, and what describes them all once every one is there. */
export interface CommandTable {
  verbs: Record<string, () => Promise<RegisterCommand>>;
  describingAll?: () => Promise<RegisterCommand>;
}

/** Every verb of `wave`, in the order `wave --help` lists them; loaded on demand so a command pays only for its own modules. */
const VERBS: CommandTable['verbs'] = {
  init: async () => (await import('./init.js')).registerInit,
  validate: async () => (await import('./validate.js')).registerValidate,
  run: async () => (await import('./run.js')).registerRun,
  resume: async () => (await import('./resume.js')).registerResume,
  replay: async () => (await import('./replay.js')).registerReplay,
  compose: async () => (await import('./compose.js')).registerCompose,
  compile: async () => (await import('./compile.js')).registerCompile,
  assemble: async () => (await import('./assemble.js')).registerAssemble,
  runs: async () => (await import('./runs.js')).registerRuns,
  list: async () => (await import('./list.js')).registerList,
  status: async () => (await import('./status.js')).registerStatus,
  logs: async () => (await import('./logs.js')).registerLogs,
  diff: async () => (await import('./diff.js')).registerDiff,
  thread: async () => (await import('./thread.js')).registerThread,
  trace: async () => (await import('./trace.js')).registerTrace,
  cancel: async () => (await import('./cancel.js')).registerCancel,
  approve: async () => (await import('./approve.js')).registerApprove,
  reject: async () => (await import('./approve.js')).registerReject,
  clean: async () => (await import('./clean.js')).registerClean,
  schema: async () => (await import('./schema.js')).registerSchema,
  doctor: async () => (await import('./doctor.js')).registerDoctor,
  sandbox: async () => (await import('./sandbox.js')).registerSandbox,
};

/** The whole CLI: every verb, and completion, which describes them all. */
export const COMMANDS: CommandTable = { verbs: VERBS, describingAll: async () => (await import('./completion.js')).registerCompletion };
