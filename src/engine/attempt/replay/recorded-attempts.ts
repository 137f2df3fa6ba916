import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ATTEMPT_FILE } from '../attempt-port.js';

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

/** `sha256:<hex>` of a prompt, as the recording's promptHash says it. */
export function promptHashOf(prompt: string): string {
  return `sha256:${createHash('sha256').update(prompt).digest('hex')}`;
}

/** A prompt with its run's id (in the workspace and artifact paths a template renders) as one mark, so a replay's prompt matches its recording's. */
export function runNeutralPrompt(prompt: string, runId: string): string {
  return runId ? prompt.split(runId).join('<run>') : prompt;
}

/** Every recorded attempt of the run in `runDir` (its steps/<id>/attempt-<n>/attempt.json), by step id and then attempt number. */
export function readRecordedAttempts(runDir: string): RecordedAttempt[] {
  const stepsDir = join(runDir, 'steps');
  const runId = basename(runDir);
  const found: RecordedAttempt[] = [];
  for (const stepId of listFolder(stepsDir)) {
    for (const name of listFolder(join(stepsDir, stepId))) {
      const attempt = /^attempt-(\d+)$/.exec(name);
      const dir = join(stepsDir, stepId, name);
      const record = attempt ? readRecord(join(dir, ATTEMPT_FILE)) : undefined;
      if (!attempt || !record?.adapter) continue;
      const prompt = runNeutralPrompt(record.prompt ?? '', runId);
      found.push({
        stepId,
        attempt: Number(attempt[1]),
        purpose: record.purpose ?? 'step',
        adapter: record.adapter.name,
        // The stored prompt, with its run's id made neutral, is what is matched; the recorded hash only when none is stored.
        promptHash: record.prompt !== undefined ? promptHashOf(prompt) : (record.promptHash ?? ''),
        prompt,
        dir,
        record,
      });
    }
  }
  return found.sort((a, b) => a.stepId.localeCompare(b.stepId) || a.attempt - b.attempt);
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
