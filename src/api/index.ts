// Wave's public TypeScript API (`import { startRun } from 'wave-pipelines'`); every name here is listed in src/api/api-surface.txt.
export { startRun, type StartRunOptions } from './start-run.js';
export { resumeRun, type ResumeRunOptions } from './resume-run.js';
export type { RunControl, RunHandle, RunResult } from './run-handle.js';
export { loadProject, type Project, type ProjectPipeline } from './load-project.js';
export { validate, type ValidateOptions, type ValidatedFile, type ValidationReport } from './validate.js';
export { readRun, type RecordedRun } from './read-run.js';
export { WaveError } from '../core/errors/errors.js';
export { WaveProblems } from './wave-problems.js';
export { createLlmAdapter, LlmError, type AgentFn, type ChatMessage, type LlmAdapterOptions } from './llm-adapter.js';
export type { StreamEvent } from '../adapters/types.js';
export { EVENT_VERSION } from '../events.js';
export type * from './types.js';
