import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The version of the recording an attempt folder holds (attempt.json `recording`); a folder without it is an older run. */
export const RECORDING_VERSION = 1;

/** The file in an attempt's folder that says what went into it and what came out. */
export const ATTEMPT_FILE = 'attempt.json';

/** `sha256:<hex>` of a text, the form attempt.json's promptHash and systemPromptHash take. */
export function sha256Tag(text: string): string {
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/** The hashes of the prompt and system prompt as stored (after redaction), which a replay matches attempts by. */
export function promptHashes(stored: { prompt?: unknown; systemPrompt?: unknown }): { promptHash?: string; systemPromptHash?: string } {
  return {
    ...(typeof stored.prompt === 'string' ? { promptHash: sha256Tag(stored.prompt) } : {}),
    ...(typeof stored.systemPrompt === 'string' ? { systemPromptHash: sha256Tag(stored.systemPrompt) } : {}),
  };
}

/** Marks an attempt's record as missing part of its workspace content (a file past a size cap), so a replay refuses it. */
export async function markRecordingIncomplete(attemptDir: string): Promise<void> {
  const file = join(attemptDir, ATTEMPT_FILE);
  const record = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  await writeFile(file, `${JSON.stringify({ ...record, recordingIncomplete: true }, null, 2)}\n`);
}
