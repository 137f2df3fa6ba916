// Runs every one of Wave's own valid pipelines that needs no network, forge token or missing tool end to end,
// unmodified with Wave's own manifest, with the real Claude Code against the scripted model server (its `wavestep`
// scenario writes what each step's requirements ask, in a way its contracts pass), and lists why the others cannot.
// A pipeline with an approval gate runs with --auto-approve, so no person answers; the output says which did.
// Usage: node bench/wave-corpus-run.mjs <path of a re-cinq/wave checkout> [--only name,name]
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startModelServer } from '../test/support/model-server.mjs';

const WAVE = fileURLToPath(new URL('../bin/wave.cjs', import.meta.url));
/** An input that stands for the URL of the page this script serves on 127.0.0.1, filled in once it listens. */
const LOCAL_PAGE = '<local page>';

/** The valid pipelines that can run offline, each with its own example input. */
const RUNNABLE = {
  'ops-hello-world': 'testing Wave',
  'local-file-explain': 'wave.yaml',
  'local-naming-check': '.agents',
  'local-test-gen': 'wave.yaml:Load',
  'audit-architecture': 'audit the architecture of the pipeline package',
  'audit-code-walk': 'internal/webui/composition.go:513-578',
  'audit-db-trace': 'SELECT id, pipeline, parent_run_id FROM pipeline_run WHERE parent_run_id IS NULL LIMIT 5',
  'audit-dead-code-scan': 'internal/',
  'audit-doc-scan': 'docs/',
  'audit-duplicates': 'internal/',
  'audit-event-trace': 'run-2026-04-27-abcd1234',
  'audit-security': 'audit the authentication module for vulnerabilities',
  'audit-tests': 'audit test quality for the pipeline package',
  'doc-explain': 'explain the pipeline execution system and how steps are scheduled',
  'doc-onboard': 'create an onboarding guide for this project',
  'gap-analyze':
    '{"id":"g1","title":"Path A bug","severity":"high","axis":"code","citation":"internal/webui/composition.go:520","recommendation":"Replace ranges with append loop"}',
  'plan-task': 'add webhook support for pipeline completion events',
  'wave-security-audit': 'audit persona permission enforcement and sandbox isolation',
  'wave-smoke-contracts': 'verify contract validation works',
  // Its scaffold step's test_suite (`go test ./...`, must_pass false, on_failure warn) only warns without a Go toolchain.
  'ops-bootstrap': 'Rust CLI tool for processing CSV files',
  'inception-audit': 'internal/',
  'inception-doc': 'docs/',
  'ops-parallel-audit': 'internal/pipeline',
  // A timer gate of 5 seconds between two command steps.
  'wave-smoke-gates': 'verify gate steps work',
  // Graph mode: a conditional step's edges, a child pipeline, an approval gate (auto: true) and a fix loop not taken.
  'wave-validate': 'full validation run',
  // Without .agents/state.db, gather-eval rolls up no eval rows and record skips the insert (its own short-circuit).
  'pipeline-evolve': 'impl-issue',
  // Wave's webui is served by its Go binary, not built here: the browser adapter captures a page this script serves.
  'audit-webui-shots': LOCAL_PAGE,
};

/** Whether a Go toolchain is on PATH (Debian's golang-go is 1.19, older than the go 1.25.5 Wave's go.mod asks for). */
const GO_HERE = spawnSync('go', ['version']).status === 0;
/** `go test ./...`, Wave's project.contract_test_command, and whether this machine can run it. */
const GO_TEST = `\`go test ./...\` (project.contract_test_command)${GO_HERE ? '' : ', and no Go toolchain is here'}`;

/** The valid pipelines that cannot run offline, and why: the step and the command or tool that needs more. */
const NOT_OFFLINE = {
  'audit-issue':
    'requires gh: fetch-issue (github-analyst, issues:read) runs `gh issue view`, file-each-followup runs `gh issue create`, create-pr opens a pull request; its child audit-webui-shots captures the webui routes the issue cites',
  'impl-finding': "requires gh: apply-fix injects ops-pr-respond's pr-context (it runs only as that pipeline's child) and pushes to the pull request's branch",
  'impl-issue': `requires gh: fetch-assess runs \`gh issue view\` on the issue it is given, create-pr runs \`gh pr create\`; implement's must-pass test_suite is ${GO_TEST}`,
  'impl-issue-core': `requires gh: fetch-assess runs \`gh issue view\` on the issue it is given; implement's must-pass test_suite, reworked by fix-implement, is ${GO_TEST}`,
  'impl-recinq': `gather (github-analyst) runs \`gh issue view\`/\`gh pr view\`, publish runs \`gh issue comment\` and opens a pull request; simplify's must-pass test_suite is ${GO_TEST}`,
  'impl-speckit': `requires gh: specify runs \`gh issue view\` on a cited issue, create-pr runs \`gh pr create\`; its speckit skill installs with \`uv tool install\` from a git URL; implement's must-pass test_suite is ${GO_TEST}`,
  'inception-bugfix': 'requires gh: child impl-issue-core runs `gh issue view` on the issue, child ops-pr-review runs `gh pr view`/`gh pr comment`',
  'inception-feature':
    'requires gh: child plan-scope runs `gh issue create`, plan-research reads the issue and searches the web, impl-issue (iterated over the created issues) opens pull requests that ops-pr-review reviews',
  'inception-harden': `child wave-test-hardening runs \`gh pr create\` and ${GO_TEST}; child wave-audit runs \`gh repo view\`/\`gh issue list\``,
  'ops-epic-runner': 'child plan-scope runs `gh issue list`/`gh issue create`; child impl-issue (iterated over the created issues) runs `gh issue view` and opens pull requests',
  'ops-issue-quality': 'requires gh: scan (github-analyst) runs `gh issue list`, enhance (github-commenter, issues:write) runs `gh issue comment`',
  'ops-pr-respond': `requires gh: fetch-pr runs \`gh pr view\`/\`gh pr diff\` on a pull request URL, its impl-finding children push to the pull request's branch, comment-back runs \`gh pr comment\`; verify runs ${GO_TEST}`,
  'ops-pr-review': 'diff-analysis runs `gh pr view`/`gh pr checkout` on a pull request URL; publish branches to ops-pr-review-publish, which runs `gh pr comment`',
  'ops-pr-review-publish': "requires gh: publish (github-commenter, pulls:write) injects ops-pr-review's verdict and diff and runs `gh pr comment` on the pull request",
  'plan-research': 'fetch-issue (github-analyst) runs `gh issue view`, research-topics searches the web, post-comment (github-commenter) runs `gh issue comment`',
  'plan-scope': 'fetch-epic (github-analyst) runs `gh issue list`, scope-and-create (github-scoper, issues:write) runs `gh issue create`, verify-report `gh issue view`',
  'wave-audit': 'collect-inventory (github-analyst) runs `gh repo view`, `gh issue list` and `gh pr list`; publish runs `gh issue create`',
  'wave-scope-audit': 'its input is a GitHub issue URL; create-issues, after the approve-scope gate, runs `gh repo view` and `gh issue create`',
  'wave-test-hardening': `analyze-coverage, harden and the fix loop's run-tests run ${GO_TEST}; create-pr runs \`gh pr create\``,
};

/** Whether this machine's /bin/sh takes `set -o pipefail` (dash before 0.5.13 does not; Wave runs scripts with `sh -c` too). */
const SH_PIPEFAIL = spawnSync('/bin/sh', ['-c', 'set -o pipefail']).status === 0;
/** The runnable pipelines this machine lacks something for, and what. */
const NOT_HERE = SH_PIPEFAIL ? {} : { 'audit-db-trace': "its command step's script starts `set -o pipefail`, which this machine's /bin/sh refuses" };

const [checkout, flag, value] = process.argv.slice(2);
if (!checkout) {
  process.stderr.write('usage: node bench/wave-corpus-run.mjs <re-cinq/wave checkout> [--only name,name]\n');
  process.exit(2);
}
const names = flag === '--only' ? value.split(',') : Object.keys(RUNNABLE).filter((name) => !NOT_HERE[name]);

/** A copy of the checkout with one commit, as Wave's projects are: worktree workspaces start from HEAD. */
function projectCopy() {
  const project = mkdtempSync(join(tmpdir(), 'wave-corpus-'));
  cpSync(checkout, project, { recursive: true, filter: (path) => !path.includes(`${checkout}/.git/`) });
  const git = (...args) => spawnSync('git', ['-c', 'user.name=Wave corpus', '-c', 'user.email=corpus@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: project });
  git('init', '-q');
  git('remote', 'add', 'origin', 'https://github.com/re-cinq/wave.git');
  git('add', '-A');
  git('commit', '-q', '-m', 'The checkout as it is');
  return project;
}

/** Whether the pipeline has an approval gate: its run takes `--auto-approve`, so it needs no person to answer. */
const hasApprovalGate = (name) => /^\s+type: approval\b/m.test(readFileSync(join(checkout, '.agents', 'pipelines', `${name}.yaml`), 'utf8'));

/** Serves one small page on 127.0.0.1 for the browser adapter to capture; resolves with its URL and close(). */
async function servePage() {
  const page = '<!doctype html><html><head><title>Wave runs</title></head><body><h1>Runs</h1><p>A local page for the browser adapter.</p></body></html>';
  const server = createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/runs`, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** One `wave run`, asynchronous: the model server answers from this process, so it must not be blocked meanwhile. */
function runPipeline(project, home, { name, input, autoApprove }) {
  const args = [WAVE, 'run', name, '--input', input, '--output', 'text', ...(autoApprove ? ['--auto-approve'] : [])];
  return promisify(execFile)(process.execPath, args, {
    cwd: project,
    env: { ...process.env, HOME: home, NO_COLOR: '1' },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  }).then(
    (done) => ({ status: 0, stdout: done.stdout, stderr: done.stderr }),
    (error) => ({ status: error.code, stdout: error.stdout ?? '', stderr: error.stderr ?? '' }),
  );
}

/** Lines of the manifest's not_supported warnings, which every run repeats: left out of a failure's excerpt. */
const MANIFEST_WARNING = /^(warning: | {2}hint: Remove it)/;

/** The end of the run's summary and its errors: what a reader needs to see why it failed. */
const failureLines = (run) => [...run.stdout.split('\n').slice(-40), ...run.stderr.split('\n')].filter((line) => !MANIFEST_WARNING.test(line)).join('\n') + '\n';

/** How the run's contracts ended, by type: `json_schema passed ×3, test_suite failed (warn)`. */
function contractTally(stdout) {
  const counts = new Map();
  for (const [, type, outcome] of stdout.matchAll(/ contract \d+:(\w+)[^\n]* (passed|failed \(\w+\))$/gm)) {
    const key = `${type} ${outcome}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, n]) => (n > 1 ? `${key} ×${n}` : key)).join(', ');
}

const project = projectCopy();
const server = await startModelServer();
const page = await servePage();
// The manifest stays as it is: Claude finds the model server through the user's own settings, as a user's Claude would.
const home = mkdtempSync(join(tmpdir(), 'wave-corpus-home-'));
mkdirSync(join(home, '.claude'));
writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ env: { ANTHROPIC_BASE_URL: `${server.url}/s/wavestep`, ANTHROPIC_API_KEY: 'scripted-key' } }));

let failed = 0;
for (const name of names) {
  const started = Date.now();
  const autoApprove = hasApprovalGate(name);
  const input = RUNNABLE[name] === LOCAL_PAGE ? page.url : RUNNABLE[name];
  const run = await runPipeline(project, home, { name, input, autoApprove });
  const ok = run.status === 0;
  if (!ok) failed++;
  const contracts = contractTally(run.stdout);
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  const notes = [...(autoApprove ? ['--auto-approve'] : []), ...(input === page.url ? [`input ${page.url}, served here`] : [])];
  process.stdout.write(
    `${ok ? 'completed' : `failed (exit ${run.status})`}  ${name}  ${seconds}s${notes.length ? `  (${notes.join('; ')})` : ''}${contracts ? `  [${contracts}]` : ''}\n`,
  );
  if (!ok) process.stdout.write(failureLines(run));
}
await page.close();
await server.close();
process.stdout.write(`${names.length - failed} of ${names.length} ran end to end (project copy: ${project})\n`);
/** Prints a table of pipeline -> reason under its heading, when it has any row. */
function printReasons(heading, table) {
  const rows = Object.entries(table);
  if (!rows.length) return;
  process.stdout.write(`${rows.length} ${heading}:\n`);
  for (const [name, reason] of rows) process.stdout.write(`  ${name}: ${reason}\n`);
}

/** The checkout's pipelines in neither table: a new one must be run or given its reason. */
function unclassified() {
  const files = readdirSync(join(checkout, '.agents', 'pipelines')).filter((file) => file.endsWith('.yaml'));
  return files.map((file) => file.slice(0, -'.yaml'.length)).filter((name) => !(name in RUNNABLE) && !(name in NOT_OFFLINE));
}

const missing = flag === '--only' ? [] : unclassified();
if (flag !== '--only') {
  printReasons('cannot run on this machine', NOT_HERE);
  printReasons('valid pipelines cannot run offline', NOT_OFFLINE);
  if (missing.length) process.stdout.write(`${missing.length} pipelines in neither table: ${missing.join(' ')}\n`);
}
process.exitCode = failed || missing.length ? 1 : 0;
