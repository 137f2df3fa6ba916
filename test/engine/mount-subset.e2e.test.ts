import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';
import { latestRun } from '../support/runs.js';

const PIPELINE = `kind: WavePipeline
metadata: { name: p }
steps:
  - id: fetch
    exec:
      type: command
      source: |
        cat > ctx.json <<'EOF'
        {"pr": {"changed_files": ["src/a.txt", "../secret.txt", "/etc/hostname", "link.txt", "src/../../secret.txt", ".wave/runs"]}}
        EOF
    output_artifacts: [{ name: ctx, path: ctx.json }]
  - id: scan
    dependencies: [fetch]
    workspace:
      mount:
        - { source: ./, target: /project, mode: readonly, subset_from: fetch.ctx.pr.changed_files }
    exec: { type: command, source: "cd project && find . -type f -o -type l | sort" }
  - id: standalone
    workspace:
      mount:
        - { source: ./src, target: /project, subset_from: fetch-pr.pr-context.changed_files }
    exec: { type: command, source: "cd project && find . -type f | sort" }
`;

describe('wave run: a mount narrowed by subset_from, end to end', () => {
  it('copies only the files the upstream artifact lists; entries leading out are skipped and reported; a missing artifact mounts all', async () => {
    const project = makeProject({ 'pipelines/p.yaml': PIPELINE, 'src/a.txt': 'a\n', 'src/b.txt': 'b\n' });
    writeFileSync(join(project, '..', 'secret.txt'), 'outside the project\n');
    symlinkSync(join(project, '..', 'secret.txt'), join(project, 'link.txt'));
    const result = await runWave(['run', 'p', '--output', 'json'], { cwd: project });
    expect(result.code, result.stderr).toBe(0);
    const record = latestRun(project);
    const output = (step: string) => readFileSync(join(project, '.wave', 'runs', record.id, 'steps', step, 'output.txt'), 'utf8');
    expect(output('scan')).toBe('./src/a.txt\n');
    expect(output('standalone')).toBe('./a.txt\n./b.txt\n');
    const events = result.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((e) => e.type === 'mount_subset')
      // `standalone` runs beside `fetch`: order by step.
      .sort((a, b) => String(a.stepId).localeCompare(String(b.stepId)));
    expect(events.map(({ v: _v, ts: _ts, runId: _r, ...e }) => e)).toEqual([
      {
        type: 'mount_subset',
        stepId: 'scan',
        source: './',
        subsetFrom: 'fetch.ctx.pr.changed_files',
        copied: 1,
        skipped: [
          { path: '../secret.txt', reason: 'climbs out with `..`' },
          { path: '/etc/hostname', reason: 'an absolute path' },
          { path: 'link.txt', reason: 'a symlink leading out of the mount source' },
          { path: 'src/../../secret.txt', reason: 'climbs out with `..`' },
          { path: '.wave/runs', reason: "inside Wave's state folder .wave" },
        ],
        skippedTotal: 5,
      },
      {
        type: 'mount_subset',
        stepId: 'standalone',
        source: './src',
        subsetFrom: 'fetch-pr.pr-context.changed_files',
        copied: 0,
        skipped: [],
        skippedTotal: 0,
        fallback: 'artifact `pr-context` of step `fetch-pr` is not in this run, so the whole source is mounted',
      },
    ]);
    // The plain-text report says the same in one line per mount.
    const text = await runWave(['run', 'p', '--output', 'text'], { cwd: project });
    expect(text.stdout).toContain('mount ./ narrowed by fetch.ctx.pr.changed_files to 1 file; skipped 5: ../secret.txt (climbs out with `..`), /etc/hostname (an absolute path)');
    expect(text.stdout).toContain('mount ./src not narrowed by fetch-pr.pr-context.changed_files: artifact `pr-context` of step `fetch-pr` is not in this run');
  });
});
