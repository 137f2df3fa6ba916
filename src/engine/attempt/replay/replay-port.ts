import { join, relative } from 'node:path';
import { LlmRunner } from '../../../adapters/llm/runner.js';
import { readHttpRecording, replayTransport } from '../../../adapters/llm/replay-transport.js';
import { failedAttempt } from '../../../adapters/agent-process.js';
import type { AdapterResult, AdapterRunner } from '../../../adapters/types.js';
import { failureOfError, type Failure } from '../../../core/errors/failure.js';
import type { Redactor } from '../../../redact.js';
import type { EventBody } from '../../run/context.js';
import type { AttemptPort, AttemptRequest } from '../attempt-port.js';
import { sha256Tag } from '../recording-fields.js';
import { RecordedAttempts } from './match-attempt.js';
import { applyRecordedChanges, readRecordedChanges, type RecordedChanges } from './recorded-changes.js';
import { readRecordedAttempts, runNeutralPrompt, type AttemptKey, type RecordedAttempt } from './recorded-attempts.js';
import { readRecordedOutput } from './recorded-output.js';
import { replaySpawn } from './replay-spawn.js';

/** What `wave replay` serves attempts with. */
export interface ReplayOptions {
  /** The recorded run's folder, absolute. */
  recordedRun: string;
  /** `strict`: an unmatched attempt fails; `live`: it runs live. */
  mode: 'strict' | 'live';
  /** How much faster than recorded the streams are fed; Infinity, as fast as possible. */
  speed: number;
  /** Where command steps and (in live mode) unmatched attempts go. */
  live: AttemptPort;
  /** Records an event in the run (replay_matched, replay_mismatch). */
  emit: (body: EventBody) => void;
  /** The run's redactor: the prompt is hashed as the recording stored it, redacted. */
  redactor: Redactor;
}

/**
 * The replay port: each agent and model attempt is matched to a recorded one (step, attempt number, adapter, prompt
 * hash) and served from it through the adapter's own parser — the recorded stream fed at its recorded pace, the
 * recorded workspace changes applied, the recorded exit returned — with no binary, server, key or network. Command
 * steps run live. An unmatched attempt fails (`replay_mismatch`, `replay_exhausted`) or, in live mode, runs live.
 */
export function replayPort(options: ReplayOptions): AttemptPort {
  const recorded = new RecordedAttempts(readRecordedAttempts(options.recordedRun));
  return {
    async run(request) {
      if (request.config.execType === 'command') return options.live.run(request);
      const key = keyOf(request, options.redactor);
      const match = recorded.take(key);
      const identity = { stepId: key.stepId, attempt: key.attempt, purpose: key.purpose };
      if ('field' in match) {
        const live = options.mode === 'live';
        options.emit({ type: 'replay_mismatch', ...identity, field: match.field, message: match.message, live });
        if (live) return options.live.run(request);
        return failedAttempt(mismatchFailure(match.field, match.message), 0);
      }
      const ready = await readyToServe(match.found);
      if ('class' in ready) return failedAttempt(ready, 0);
      const result = await serve(request, match.found, ready.changes, options);
      options.emit({ type: 'replay_matched', ...identity, from: relative(join(options.recordedRun, '..'), match.found.dir), ...result.warning });
      return result.result;
    },
  };
}

function keyOf(request: AttemptRequest, redactor: Redactor): AttemptKey {
  const { stepId, attempt, adapter, runId } = request.config;
  // The recording keeps the prompt redacted, and hashes what it keeps.
  const prompt = runNeutralPrompt(redactor.redact(request.config.prompt), runId);
  return { stepId, attempt, purpose: request.purpose, adapter: adapter.name, prompt, promptHash: sha256Tag(prompt) };
}

function mismatchFailure(field: string, message: string): Failure {
  if (field === 'exhausted') return { class: 'replay_exhausted', message, hint: 'Record the run again, or replay with --replay-mode live to run the extra attempts live.' };
  return { class: 'replay_mismatch', message, hint: 'Replay with --replay-mode live to run the changed attempts live and the rest from the recording.' };
}

/** The recorded attempt's workspace changes, or why it cannot be served: recorded before recordings, or with files left out. */
async function readyToServe(found: RecordedAttempt): Promise<{ changes: RecordedChanges | undefined } | Failure> {
  const where = relative(process.cwd(), found.dir) || '.';
  if (found.record.recording === undefined) {
    return {
      class: 'replay_unrecorded',
      message: `the recorded attempt ${where} was made before Wave kept recordings`,
      hint: 'Run the pipeline live once to record it, then replay that run.',
    };
  }
  const changes = await readRecordedChanges(found.dir).catch(() => undefined);
  const omitted = changes?.omitted?.[0];
  if (found.record.recordingIncomplete || omitted) {
    const what = omitted ? `${omitted.path} (${omitted.reason})` : 'a file';
    return {
      class: 'replay_incomplete',
      message: `the recorded attempt ${where} left ${what} out of its recording`,
      hint: 'Raise runtime.recording.max_file_mb or max_attempt_mb and record the run again.',
    };
  }
  return { changes };
}

/** The attempt served from its recording through the live port (its limits, its attempt.json), then its workspace changes applied. */
async function serve(request: AttemptRequest, found: RecordedAttempt, changes: RecordedChanges | undefined, options: ReplayOptions) {
  const served = request.runner.type === 'llm' ? await llmRequest(request, found, options) : await agentRequest(request, found, options.speed);
  const result = await options.live.run(served);
  if (!changes || request.signal.aborted) return { result, warning: {} };
  try {
    const { unsetSecrets } = await applyRecordedChanges(changes, found.dir, request.config.workspace, process.env);
    return { result, warning: unsetSecrets.length ? { unsetSecrets } : {} };
  } catch (error) {
    const failure = failureOfError(error, 'io_error');
    return { result: { ...result, ok: false, failure: { ...failure, message: `could not restore the recorded workspace changes: ${failure.message}` } }, warning: {} };
  }
}

/** An agent CLI's attempt on a spawn that plays the recording: the adapter prepares and parses as live, and no binary is looked for. */
async function agentRequest(request: AttemptRequest, found: RecordedAttempt, speed: number): Promise<AttemptRequest> {
  const output = await readRecordedOutput(found.dir);
  const { config } = request;
  // Any executable will do: the spawn that plays the recording starts none.
  const adapter = { ...config.adapter, binary: process.execPath };
  return { ...request, runner: withRecordedArgv(request.runner, found), config: { ...config, adapter, spawn: replaySpawn({ output, record: found.record, speed }) } };
}

/** The llm adapter's attempt on a transport that answers from http.ndjson; the key it checks for is not needed. */
async function llmRequest(request: AttemptRequest, found: RecordedAttempt, options: ReplayOptions): Promise<AttemptRequest> {
  const records = await readHttpRecording(join(found.dir, 'http.ndjson'));
  const runner = new LlmRunner({ redactor: options.redactor, transport: replayTransport(records, options.speed) });
  const keyEnv = request.config.adapter.apiKeyEnv;
  const env = keyEnv && !request.config.env[keyEnv] ? { ...request.config.env, [keyEnv]: 'replayed' } : request.config.env;
  return { ...request, runner, config: { ...request.config, env } };
}

/** The runner with the recorded command line in its results, not the stand-in executable's. */
function withRecordedArgv(runner: AdapterRunner, found: RecordedAttempt): AdapterRunner {
  const argv = found.record.argv;
  return {
    type: runner.type,
    ...(runner.continuesSessions !== undefined ? { continuesSessions: runner.continuesSessions } : {}),
    async run(config, signal, onEvent): Promise<AdapterResult> {
      const result = await runner.run(config, signal, onEvent);
      const { argv: _standIn, ...rest } = result;
      return argv ? { ...rest, argv } : rest;
    },
  };
}
