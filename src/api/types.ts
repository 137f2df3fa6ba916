// The types of Wave's formats, events and records, as the API hands them out (their definitions live with the code that owns them).
export type { AdapterConfig, Manifest, PersonaConfig, Pipeline, RuntimeConfig } from './format-types.js';
export type { ErrorCode } from '../core/errors/error-codes.js';
export type { SourceLocation, WaveErrorJSON } from '../core/errors/errors.js';
export type { Failure } from '../core/errors/failure.js';
export type { Outcome, RunOutput } from '../core/deliverables.js';
export type { FileChange } from '../core/file-change.js';
export type { TokenUsage } from '../core/models/tokens.js';
export type { ChildKind, GateKind, PlannedStepEntry, RunEvent, RunEventType, RunOptions, RunStatus, StepStatus } from '../events.js';
export type { AttemptRecord, ArtifactRecord, ChildRunRecord, ContractRecord, GateRecord, RunRecord, StepRecord } from '../state/record/run-record.js';
export type { StepResult } from '../state/record/step-result.js';
export type { ValidationProblem } from '../app/validate-project.js';
export type { TextWriter } from '../app/text-writer.js';
