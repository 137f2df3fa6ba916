// How many of a Wave checkout's own pipelines this Wave loads: `wave validate` on each pipeline with the
// checkout's unmodified manifest, sorted into valid, failing only on not_supported, and failing otherwise.
// Usage: node bench/wave-corpus.mjs <path of a re-cinq/wave checkout> [--list]
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const WAVE = fileURLToPath(new URL('../bin/wave.cjs', import.meta.url));

/** The problems `wave validate --json` reports for one pipeline (the manifest's included), by file. */
function problemsOf(checkout, pipeline) {
  const result = spawnSync(process.execPath, [WAVE, 'validate', '--json', pipeline], { cwd: checkout, encoding: 'utf8' });
  if (result.status !== 0 && result.status !== 2) throw new Error(`wave validate ${pipeline} exited ${result.status}: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

/** Each pipeline of the checkout with its verdict and the problems that decided it. */
export function measure(checkout) {
  const dir = join(checkout, '.agents', 'pipelines');
  if (!existsSync(dir)) throw new Error(`${dir} does not exist: name the folder of a re-cinq/wave checkout`);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.yaml'))
    .sort()
    .map((name) => {
      const reported = problemsOf(checkout, relative(checkout, join(dir, name)));
      // A warning (a setting nothing in a run uses) does not stop the pipeline loading.
      const problems = reported.filter((p) => p.severity !== 'warning');
      const warnings = reported.filter((p) => p.severity === 'warning');
      const verdict = problems.length === 0 ? 'valid' : problems.every((p) => p.code === 'not_supported') ? 'not_supported' : 'other';
      return { pipeline: basename(name, '.yaml'), verdict, problems, warnings };
    });
}

const [checkout, flag] = process.argv.slice(2);
if (!checkout) {
  process.stderr.write('usage: node bench/wave-corpus.mjs <re-cinq/wave checkout> [--list]\n');
  process.exit(2);
}
const results = measure(checkout);
const count = (verdict) => results.filter((r) => r.verdict === verdict).length;
const warned = results.filter((r) => r.warnings.length > 0).length;
process.stdout.write(
  `${results.length} pipelines: ${count('valid')} valid, ${count('not_supported')} failing only on not_supported, ${count('other')} failing otherwise; ${warned} with warnings\n`,
);
for (const r of results) {
  if (r.verdict === 'valid' && flag !== '--list') continue;
  const codes = [...new Set(r.problems.map((p) => `${p.code}: ${p.message}`))];
  process.stdout.write(`  ${r.verdict.padEnd(13)} ${r.pipeline}${codes.length ? `\n${codes.map((c) => `      ${c}`).join('\n')}` : ''}\n`);
}
