import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ATTEMPT_FILE, sha256Tag } from '../recording-fields.js';

/** What replay reads of a recorded attempt's attempt.json (the recording format of docs/run-folder-and-events.md). */
export interface AttemptRecordFile {
  purpose?: string;
  adapter?: { name: string; type: string };
  prompt?: string;
  /** The recording format's version; absent in a run made before Wave kept recordings. */
  recording?: number;
  promptHash?: string;
  exitCode?: number | null;
  signal?: string | null;
  durationMs?: number;
  failure?: { class: string; message: string };
  argv?: string[];
  recordingIncomplete?: boolean;
}

/** What the run asks a recording for, and what a recorded attempt answers: the attempt's identity and its rendered prompt's hash. */
export interface AttemptKey {
  stepId: string;
  attempt: number;
  purpose: string;
  adapter: string;
  promptHash: string;
  /** The prompt as stored, redacted: the hash's text. */
  prompt: string;
}

/** One attempt of the recorded run, as the replay port matches and serves it. */
export interface RecordedAttempt extends AttemptKey {
  /** The attempt folder, absolute. */
  dir: string;
  record: AttemptRecordFile;
}

/** A prompt with its run's id (in the workspace and artifact paths a template renders) as one mark, so a replay's prompt matches its recording's. */
export function runNeutralPrompt(prompt: string, runId: string): string {
  return runId ? prompt.split(runId).join('<run>') : prompt;
}

/**
 * Every recorded attempt of the run in `runDir`: each step's attempt-<n>/attempt.json, then the model requests made
 * for that attempt (attempt-<n>/<purpose>-<k>/attempt.json: an extract, a judge, a review), in the order they were made.
 */
export function readRecordedAttempts(runDir: string): RecordedAttempt[] {
  const stepsDir = join(runDir, 'steps');
  const runId = basename(runDir);
  const found: RecordedAttempt[] = [];
  for (const stepId of listFolder(stepsDir)) {
    for (const name of listFolder(join(stepsDir, stepId))) {
      const attempt = /^attempt-(\d+)$/.exec(name);
      if (!attempt) continue;
      const dir = join(stepsDir, stepId, name);
      const requests = listFolder(dir)
        .filter((sub) => /^[a-z][a-z-]*-\d+$/.test(sub))
        .sort((a, b) => Number(/\d+$/.exec(a)![0]) - Number(/\d+$/.exec(b)![0]));
      for (const folder of [dir, ...requests.map((sub) => join(dir, sub))]) {
        const record = readRecord(join(folder, ATTEMPT_FILE));
        if (record?.adapter) found.push(recordedAttempt({ stepId, attempt: Number(attempt[1]), dir: folder, record, runId }));
      }
    }
  }
  // Stable: within an attempt, its own record first, then its requests in order.
  return found.sort((a, b) => a.stepId.localeCompare(b.stepId) || a.attempt - b.attempt);
}

function recordedAttempt(input: { stepId: string; attempt: number; dir: string; record: AttemptRecordFile; runId: string }): RecordedAttempt {
  const { record } = input;
  const prompt = runNeutralPrompt(record.prompt ?? '', input.runId);
  return {
    stepId: input.stepId,
    attempt: input.attempt,
    purpose: record.purpose ?? 'step',
    adapter: record.adapter!.name,
    // The stored prompt, with its run's id made neutral, is what is matched; the recorded hash only when none is stored.
    promptHash: record.prompt !== undefined ? sha256Tag(prompt) : (record.promptHash ?? ''),
    prompt,
    dir: input.dir,
    record,
  };
}

function listFolder(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

function readRecord(path: string): AttemptRecordFile | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as AttemptRecordFile;
  } catch {
    return undefined;
  }
}
