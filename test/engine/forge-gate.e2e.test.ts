import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runWave } from '../support/cli.js';
import { makeProject, SHELL_MANIFEST } from '../support/project.js';
import { latestRun } from '../support/runs.js';

// pr_merge and ci_pass gates ask GitHub through `gh`: here a stub `gh` on PATH answers from a script of answers.

/** A `gh` that logs its arguments and gives the next of `answers` (`exit:<n>:<stderr>` fails), the last one again once they run out. */
function stubGh(answers: string[]): { path: string; calls: () => string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'wave-gh-'));
  answers.forEach((answer, i) => writeFileSync(join(dir, `answer-${i + 1}`), answer));
  writeFileSync(
    join(dir, 'gh'),
    `#!/bin/sh
dir=$(dirname "$0")
n=$(( $(cat "$dir/count" 2>/dev/null || echo 0) + 1 ))
echo $n > "$dir/count"
echo "$*" >> "$dir/calls"
[ -e "$dir/answer-$n" ] || n=${answers.length}
answer=$(cat "$dir/answer-$n")
case "$answer" in exit:*) echo "\${answer#exit:1:}" >&2; exit 1;; esac
printf '%s\\n' "$answer"
`,
  );
  chmodSync(join(dir, 'gh'), 0o755);
  return { path: `${dir}:${process.env.PATH ?? ''}`, calls: () => readFileSync(join(dir, 'calls'), 'utf8').trim().split('\n') };
}

const gated = (gate: string) => `kind: WavePipeline
metadata: { name: gated }
steps:
  - id: merged
    type: gate
    gate: { ${gate}, interval: 50ms }
  - id: after
    dependencies: [merged]
    exec: { type: command, source: "echo after {{ gate.merged.text }}" }
`;

describe('gates that poll GitHub', () => {
  it('pr_merge polls until the pull request is merged, asking again after an error', async () => {
    const gh = stubGh(['exit:1:HTTP 502: Bad Gateway', '{"merged":false,"state":"OPEN"}', '{"merged":true,"state":"MERGED"}']);
    const project = makeProject({ 'pipelines/gated.yaml': gated('type: pr_merge, pr_number: 12, repo: acme/app') });
    const run = await runWave(['run', 'gated', '--output', 'text'], { cwd: project, env: { PATH: gh.path } });
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(run.stdout).toContain('merged waiting for pull request #12 of acme/app to merge');
    expect(run.stdout).toContain('gate resolved by the forge: pull request #12 of acme/app is merged');
    expect(gh.calls()).toEqual(Array(3).fill('pr view 12 --repo acme/app --json merged,state'));
    expect(latestRun(project).steps.merged!.gate).toMatchObject({ status: 'resolved', polls: 'pull request #12 of acme/app to merge', decision: { by: 'forge' } });
  });

  it('pr_merge fails the step when the pull request is closed unmerged, saying so', async () => {
    const gh = stubGh(['{"merged":false,"state":"CLOSED"}']);
    const project = makeProject({ 'pipelines/gated.yaml': gated('type: pr_merge, pr_number: 12, repo: acme/app') });
    const run = await runWave(['run', 'gated', '--output', 'text'], { cwd: project, env: { PATH: gh.path } });
    expect(run.code).toBe(1);
    expect(latestRun(project).steps.merged!.failure).toEqual({ class: 'gate_rejected', message: 'pull request #12 of acme/app was closed without being merged' });
  });

  it("ci_pass waits for the latest run of the project's checked-out branch on its GitHub remote; a failed run fails it", async () => {
    const project = makeProject({ 'pipelines/gated.yaml': gated('type: ci_pass') });
    execFileSync('git', ['init', '-q', '-b', 'feature/x', project]);
    execFileSync('git', ['-C', project, 'remote', 'add', 'origin', 'git@github.com:acme/app.git']);
    const passing = stubGh(['[]', '[{"status":"in_progress","conclusion":""}]', '[{"status":"completed","conclusion":"success"},{"status":"completed","conclusion":"failure"}]']);
    const run = await runWave(['run', 'gated', '--output', 'text'], { cwd: project, env: { PATH: passing.path } });
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(passing.calls()[0]).toBe('run list --branch feature/x --repo acme/app --limit 5 --json status,conclusion');
    expect(run.stdout).toContain('waiting for the latest CI run of branch feature/x of acme/app to pass');

    const failing = stubGh(['[{"status":"completed","conclusion":"timed_out"}]']);
    const failed = await runWave(['run', 'gated'], { cwd: project, env: { PATH: failing.path } });
    expect(failed.code).toBe(1);
    expect(latestRun(project).steps.merged!.failure!.message).toBe('the latest CI run of branch feature/x of acme/app ended timed_out');
  });

  it('gives up at its timeout with the last answer, and fails at once without gh or without a GitHub repository', async () => {
    const gh = stubGh(['{"merged":false,"state":"OPEN"}']);
    const project = makeProject({ 'pipelines/gated.yaml': gated('type: pr_merge, pr_number: 3, repo: acme/app, timeout: 300ms') });
    const run = await runWave(['run', 'gated'], { cwd: project, env: { PATH: gh.path } });
    expect(run.code).toBe(1);
    expect(latestRun(project).steps.merged!.failure).toEqual({
      class: 'timeout',
      message: 'gate `merged` waited 0.3 s for pull request #3 of acme/app to merge; last: pull request #3 of acme/app is open',
    });
    const none = await runWave(['run', 'gated'], { cwd: project, env: { PATH: '/nonexistent' } });
    expect(none.code).toBe(1);
    expect(latestRun(project).steps.merged!.failure!.message).toBe("gh, GitHub's CLI, is not installed: the gate cannot ask GitHub");
    const noRemote = makeProject({ 'pipelines/gated.yaml': gated('type: ci_pass') });
    expect((await runWave(['run', 'gated'], { cwd: noRemote, env: { PATH: gh.path } })).code).toBe(1);
    expect(latestRun(noRemote).steps.merged!.failure!.message).toContain('set `gate.repo: owner/repo`');
  });
});

describe("the manifest's gate timeouts and a ci_pass gate's own branch", () => {
  /** The shell manifest with these `runtime.timeouts` gate keys. */
  const withTimeouts = (keys: string) => SHELL_MANIFEST.replace('timeouts: { process_grace_seconds: 1 }', `timeouts: { process_grace_seconds: 1, ${keys} }`);

  it('gate_poll_interval_seconds and gate_poll_timeout_minutes are the defaults of a polling gate that sets neither', async () => {
    const gh = stubGh(['{"merged":false,"state":"OPEN"}']);
    const pipeline = `kind: WavePipeline
metadata: { name: gated }
steps:
  - id: merged
    type: gate
    gate: { type: pr_merge, pr_number: 3, repo: acme/app }
`;
    const project = makeProject({ 'wave.yaml': withTimeouts('gate_poll_interval_seconds: 0.05, gate_poll_timeout_minutes: 0.005'), 'pipelines/gated.yaml': pipeline });
    const run = await runWave(['run', 'gated'], { cwd: project, env: { PATH: gh.path } });
    expect(run.code).toBe(1);
    expect(latestRun(project).steps.merged!.failure!.message).toContain('gate `merged` waited 0.3 s for pull request #3 of acme/app to merge');
    // Polled every 50 ms for 0.3 s, not once every 30 s.
    expect(gh.calls().length).toBeGreaterThan(2);
  });

  it('gate_approval_hours is how long an approval gate without a timeout waits before taking its default', async () => {
    const pipeline = `kind: WavePipeline
metadata: { name: gated }
steps:
  - id: approve
    type: gate
    gate: { type: approval, default: y, choices: [{ key: y, label: Yes }] }
`;
    const project = makeProject({ 'wave.yaml': withTimeouts('gate_approval_hours: 0.0001'), 'pipelines/gated.yaml': pipeline });
    const run = await runWave(['run', 'gated'], { cwd: project });
    expect(run.code, run.stderr).toBe(0);
    expect(latestRun(project).steps.approve!.gate!.decision).toMatchObject({ by: 'timeout', key: 'y' });
  });

  it("a ci_pass gate's `branch` is the branch it asks about", async () => {
    const gh = stubGh(['[{"status":"completed","conclusion":"success"}]']);
    const project = makeProject({ 'pipelines/gated.yaml': gated('type: ci_pass, repo: acme/app, branch: release/2') });
    const run = await runWave(['run', 'gated'], { cwd: project, env: { PATH: gh.path } });
    expect(run.code, run.stderr).toBe(0);
    expect(gh.calls()).toEqual(['run list --branch release/2 --repo acme/app --limit 5 --json status,conclusion']);
  });
});
