import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AdapterResult } from '../../adapters/types.js';
import { SYSTEM_CLOCK, type Clock } from '../../core/clock.js';
import { runAttempt, type AttemptRun } from './attempt.js';
import { ATTEMPT_FILE, promptHashes, RECORDING_VERSION } from './recording-fields.js';

export { ATTEMPT_FILE } from './recording-fields.js';

/** One agent or model attempt, whatever asked for it: a step's attempt, an extract, a judge, a thread summary. */
export interface AttemptRequest extends Omit<AttemptRun, 'clock'> {
  /** `step` for a step's own attempt, else what the model is asked for. */
  purpose: string;
}

/** The one way an attempt reaches an adapter: where a recording, a replay or a simulation takes the live runner's place. */
export interface AttemptPort {
  run(request: AttemptRequest): Promise<AdapterResult>;
}

/**
 * The live port: the adapter's runner under the attempt's limits, on `clock`. What went in (purpose, adapter, model,
 * the rendered prompt and system prompt, the session continued, the variables it was given by name, the command line)
 * and what came out (exit, signal, failure, tokens, cost, session, timing) are kept in the attempt folder's attempt.json,
 * redacted; its raw stream is the folder's stdout and stderr, and output.timing says when each piece of them came.
 */
export function livePort(redact: <T>(value: T) => T = (value) => value, clock: Clock = SYSTEM_CLOCK): AttemptPort {
  return {
    async run(request) {
      const startedAt = new Date(clock.now()).toISOString();
      const result = await runAttempt({ ...request, clock });
      const record = { recording: RECORDING_VERSION, ...wentIn(request), startedAt, finishedAt: new Date(clock.now()).toISOString(), ...cameOut(result) };
      const stored = redact(record);
      // The hashes are of the text as stored, so a replay can match a prompt against the one it reads here.
      const hashed = { ...stored, ...promptHashes(stored) };
      // A report on the attempt, never its outcome: a folder that cannot take it fails nothing.
      await writeFile(join(request.config.attemptDir, ATTEMPT_FILE), `${JSON.stringify(hashed, null, 2)}\n`).catch(() => undefined);
      return result;
    },
  };
}

function wentIn({ purpose, config, limits }: AttemptRequest) {
  return {
    purpose,
    adapter: { name: config.adapter.name, type: config.adapter.type },
    ...(config.model !== undefined ? { model: config.model } : {}),
    execType: config.execType,
    prompt: config.prompt,
    ...(config.persona ? { persona: config.persona.name, systemPrompt: config.persona.systemPrompt } : {}),
    ...(config.continueFrom ? { continuedSession: config.continueFrom.sessionId } : {}),
    // Names only: the values are the curated environment's, secrets among them.
    envNames: Object.keys(config.env).sort(),
    permissions: { allowedTools: config.persona?.allowedTools ?? [], deniedTools: config.persona?.deniedTools ?? [] },
    limits,
  };
}

function cameOut(result: AdapterResult) {
  const { ok, exitCode, signal, durationMs, tokens, costUsd, failure, sessionId, argv, cliVersion } = result;
  const optional = {
    ...(argv ? { argv } : {}),
    ...(cliVersion ? { cliVersion } : {}),
    ...(costUsd !== undefined ? { costUsd } : {}),
    ...(failure ? { failure } : {}),
    ...(sessionId ? { sessionId } : {}),
  };
  return { ok, exitCode, signal: signal ?? null, durationMs, tokens, ...optional };
}
