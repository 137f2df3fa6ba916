import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What the recording work adds to a run's attempt folders, written here as its format documents it: the version in
 * attempt.json and, for each attempt, workspace/changes.json with the workspace files the attempt wrote (`files`, by
 * `<step id>/attempt-<n>`) stored in full. A folder that already has them is left as it is.
 */
export function completeRecording(runDir: string, files: Record<string, Record<string, string>>): void {
  for (const stepId of readdirSync(join(runDir, 'steps'))) {
    for (const name of readdirSync(join(runDir, 'steps', stepId)).filter((n) => n.startsWith('attempt-'))) {
      const dir = join(runDir, 'steps', stepId, name);
      const attemptFile = join(dir, 'attempt.json');
      if (!existsSync(attemptFile)) continue;
      const record = JSON.parse(readFileSync(attemptFile, 'utf8')) as Record<string, unknown>;
      if (record.recording === undefined) writeFileSync(attemptFile, JSON.stringify({ ...record, recording: 1 }));
      if (existsSync(join(dir, 'workspace', 'changes.json'))) continue;
      const written = Object.entries(files[`${stepId}/${name}`] ?? {});
      mkdirSync(join(dir, 'workspace', 'files'), { recursive: true });
      for (const [path, content] of written) writeFileSync(join(dir, 'workspace', 'files', path), content);
      const listed = written.map(([path, content]) => ({ path, change: 'created', mode: 0o644, size: Buffer.byteLength(content), sha256: '', secrets: [] }));
      writeFileSync(join(dir, 'workspace', 'changes.json'), JSON.stringify({ version: 1, files: listed, omitted: [] }));
    }
  }
}

/** The event types of a run in order, leaving out those of the replay itself and the live view's progress. */
export function replayedEventTypes(run: { events: Array<Record<string, any>> }): string[] {
  return run.events.map((e) => e.type as string).filter((t) => !['replay_matched', 'replay_mismatch', 'step_tokens', 'attempt_spawned'].includes(t));
}
