// Runs Wave's own simple pipelines end to end, unmodified, with the real Claude Code against the scripted model
// server (its `author` scenario writes the file each task names): ops-hello-world and the local-* pipelines.
// Usage: node bench/wave-corpus-run.mjs <path of a re-cinq/wave checkout>
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startModelServer } from '../test/support/model-server.mjs';

const WAVE = fileURLToPath(new URL('../bin/wave.cjs', import.meta.url));
const PIPELINES = {
  'ops-hello-world': 'testing Wave',
  'local-file-explain': 'wave.yaml',
  'local-naming-check': '.agents',
  'local-test-gen': 'wave.yaml:Load',
};

const checkout = process.argv[2];
if (!checkout) {
  process.stderr.write('usage: node bench/wave-corpus-run.mjs <re-cinq/wave checkout>\n');
  process.exit(2);
}
// A copy, so the runs' folders and workspaces stay out of the checkout; a git repository, as Wave's projects are.
const project = mkdtempSync(join(tmpdir(), 'wave-corpus-'));
cpSync(checkout, project, { recursive: true, filter: (path) => !path.includes(`${checkout}/.git/`) });
spawnSync('git', ['init', '-q'], { cwd: project });
spawnSync('git', ['remote', 'add', 'origin', 'https://github.com/re-cinq/wave.git'], { cwd: project });

const server = await startModelServer();
// The manifest stays as it is: Claude finds the model server through the user's own settings, as a user's Claude would.
const home = mkdtempSync(join(tmpdir(), 'wave-corpus-home-'));
mkdirSync(join(home, '.claude'));
writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ env: { ANTHROPIC_BASE_URL: `${server.url}/s/author`, ANTHROPIC_API_KEY: 'scripted-key' } }));

let failed = 0;
for (const [name, input] of Object.entries(PIPELINES)) {
  // Asynchronous: the model server answers from this process, so it must not be blocked while wave runs.
  const run = await promisify(execFile)(process.execPath, [WAVE, 'run', name, '--input', input, '--output', 'text'], {
    cwd: project,
    env: { ...process.env, HOME: home, NO_COLOR: '1' },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  }).then(
    (done) => ({ status: 0, stdout: done.stdout, stderr: done.stderr }),
    (error) => ({ status: error.code, stdout: error.stdout ?? '', stderr: error.stderr ?? '' }),
  );
  const ok = run.status === 0;
  if (!ok) failed++;
  const contracts = (run.stdout.match(/contract \S+ (passed|failed)/g) ?? []).join(', ');
  process.stdout.write(`${ok ? 'completed' : `failed (exit ${run.status})`}  ${name}${contracts ? `  [${contracts}]` : ''}\n`);
  if (!ok) process.stdout.write(`${run.stdout.split('\n').slice(-25).join('\n')}\n${run.stderr}\n`);
}
await server.close();
process.stdout.write(`${Object.keys(PIPELINES).length - failed} of ${Object.keys(PIPELINES).length} ran end to end (project copy: ${project})\n`);
process.exitCode = failed ? 1 : 0;
