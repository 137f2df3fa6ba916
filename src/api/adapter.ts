// What a plugin module imports (`import { defineAdapter } from 'wave-pipelines/adapter'`): the descriptor function and
// the types of what its functions take and give. A small entry of its own, so loading a plugin never loads the engine.
export { defineAdapter, type AdapterDefinition, type DefinedAdapter } from '../adapters/plugin/define-adapter.js';
export type { AdapterRunConfig, CliEnvInput, StreamEvent } from '../adapters/types.js';
export type { AgentInvocation, AgentOutcome, AgentStream, CliEndpoint, CliInstall, CliLogin, LoginCheckPlace } from '../adapters/agent-cli.js';
export type { LoginStatus } from '../adapters/login/login-status.js';
export type { AgentCliModels } from '../core/models/agent-cli-models.js';
export type { Failure } from '../core/errors/failure.js';
export type { FailureClass } from '../core/errors/error-codes.js';
export type { TokenUsage } from '../core/models/tokens.js';
export type { SpawnResult } from '../process/spawn-spec.js';
