import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A manifest with a shell process adapter and persona, enough for command and prompt steps. */
export const SHELL_MANIFEST = `kind: WaveManifest
metadata: { name: test }
adapters:
  shell: { type: process, binary: sh, args: ["-c", "{{prompt}}"] }
personas:
  shell: { adapter: shell }
runtime:
  max_concurrency: 4
  timeouts: { process_grace_seconds: 1 }
`;

/** Makes a throwaway project folder holding the given files (wave.yaml defaults to SHELL_MANIFEST). */
export function makeProject(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'wave-test-'));
  for (const [path, content] of Object.entries({ 'wave.yaml': SHELL_MANIFEST, ...files })) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

/** A pipeline of command steps: each entry is [id, dependencies, shell command]. */
export function commandPipeline(name: string, steps: [string, string[], string][], extra = ''): string {
  const body = steps
    .map(([id, deps, cmd]) => `  - id: ${id}\n    dependencies: [${deps.join(', ')}]\n    exec:\n      type: command\n      source: ${JSON.stringify(cmd)}\n${extra}`)
    .join('');
  return `kind: WavePipeline\nmetadata: { name: ${name} }\nsteps:\n${body}`;
}
