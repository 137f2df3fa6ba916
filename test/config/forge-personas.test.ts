import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runWave } from '../support/cli.js';
import { makeProject } from '../support/project.js';

/** Personas for two forges, both running prompts in the shell. */
function manifest(extra = ''): string {
  return `kind: WaveManifest
metadata: { name: forged${extra} }
adapters:
  shell: { type: process, binary: sh, args: ["-c", "{{prompt}}"] }
personas:
  github-shell: { adapter: shell, env: { WHO: the github persona } }
  gitlab-shell: { adapter: shell, env: { WHO: the gitlab persona } }
  acme-reviewer: { adapter: shell }
runtime:
  timeouts: { process_grace_seconds: 1 }
`;
}

const PIPELINE = `kind: WavePipeline
metadata: { name: forged }
steps:
  - id: fetch
    persona: "{{ forge.type }}-shell"
    exec: { source: 'printf %s "$WHO"' }
    output_artifacts: [{ name: who, source: stdout }]
`;

const projects: string[] = [];
afterAll(() => {
  for (const dir of projects) rmSync(dir, { recursive: true, force: true });
});

/** A project in a fresh git repository with the given remotes (name -> URL). */
function repository(remotes: Record<string, string>, files: Record<string, string> = {}): string {
  const dir = makeProject({ 'wave.yaml': manifest(), 'pipelines/forged.yaml': PIPELINE, ...files });
  projects.push(dir);
  execFileSync('git', ['init', '-q'], { cwd: dir });
  for (const [name, url] of Object.entries(remotes)) execFileSync('git', ['remote', 'add', name, url], { cwd: dir });
  return dir;
}

/** The persona line `wave run --dry-run` prints for the step. */
async function plannedPersona(dir: string, env: Record<string, string> = {}): Promise<string> {
  const result = await runWave(['run', 'forged', '--dry-run'], { cwd: dir, env });
  expect(result.code, result.stderr).toBe(0);
  return /persona: +(\S+)/.exec(result.stdout)![1]!;
}

describe('persona names with {{ forge.* }}, resolved before planning', () => {
  it("take the forge from origin's fetch remote", async () => {
    expect(await plannedPersona(repository({ origin: 'git@github.com:acme/widgets.git' }))).toBe('github-shell');
    expect(await plannedPersona(repository({ upstream: 'https://github.com/x/y', origin: 'https://gitlab.com/acme/widgets.git' }))).toBe('gitlab-shell');
  });

  it('run as the resolved persona', async () => {
    const dir = repository({ origin: 'https://github.com/acme/widgets.git' });
    const run = await runWave(['run', 'forged', '--output', 'text'], { cwd: dir });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const [runId] = readdirSync(join(dir, '.wave', 'runs'));
    expect(readFileSync(join(dir, '.wave', 'runs', runId!, 'artifacts', 'fetch', 'who'), 'utf8')).toBe('the github persona');
  });

  it('take metadata.forge over the remote', async () => {
    const dir = repository({ origin: 'https://github.com/acme/widgets.git' }, { 'wave.yaml': manifest().replace('name: forged', 'name: forged, forge: gitlab') });
    expect(await plannedPersona(dir)).toBe('gitlab-shell');
  });

  it('use forge.owner and forge.repo from the remote', async () => {
    const dir = repository(
      { origin: 'git@github.com:acme/widgets.git' },
      { 'pipelines/forged.yaml': PIPELINE.replace('"{{ forge.type }}-shell"', '"{{ forge.owner }}-reviewer"') },
    );
    expect(await plannedPersona(dir)).toBe('acme-reviewer');
  });

  it('name the persona a forge needs when the manifest lacks it: local without a remote', async () => {
    const dir = repository({});
    const run = await runWave(['run', 'forged'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "pipelines/forged.yaml:5:14: unknown_persona: step `fetch` names persona `{{ forge.type }}-shell`, which is `local-shell` (local) for this project's forge, and the manifest does not declare it",
    );
  });

  it('say when the remote host is not a forge Wave knows by name, and take self-hosted hosts from WAVE_GITEA_HOSTS', async () => {
    const dir = repository({ origin: 'https://git.example.org/acme/widgets.git' });
    const run = await runWave(['run', 'forged'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('but the forge of the git remote https://git.example.org/acme/widgets.git is not one Wave recognises by its host');
    expect(run.stderr).toContain('hint: Set `metadata.forge` in wave.yaml');
    const gitea = await runWave(['run', 'forged'], { cwd: dir, env: { WAVE_GITEA_HOSTS: 'git.example.org' } });
    expect(gitea.stderr).toContain('which is `gitea-shell` (gitea) for this project');
  });

  it('refuse a forge variable a persona name cannot use', async () => {
    const dir = repository(
      { origin: 'https://github.com/acme/widgets.git' },
      { 'pipelines/forged.yaml': PIPELINE.replace('"{{ forge.type }}-shell"', '"{{ forge.cli_tool }}-shell"') },
    );
    const result = await runWave(['validate'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('template_invalid: step `fetch` names persona `{{ forge.cli_tool }}-shell`, whose `forge.cli_tool` a persona name cannot use');
  });
});

/** A project with a GitLab remote whose `forged` pipeline saves what `command` prints as its `vars` artifact, beside `files`. */
function forgedProject(command: string, files: Record<string, string> = {}): string {
  const pipeline = `kind: WavePipeline
metadata: { name: forged }
steps:
  - id: vars
    exec: { type: command, source: ${JSON.stringify(command)} }
    output_artifacts: [{ name: vars, source: stdout }]
`;
  return repository({ origin: 'git@gitlab.com:acme/widgets.git' }, { 'pipelines/forged.yaml': pipeline, ...files });
}

/** The `vars` artifact of the `forged` run in `dir`. */
function forgedVars(dir: string): string {
  const runId = readdirSync(join(dir, '.wave', 'runs')).find((id) => id.startsWith('forged-'));
  return readFileSync(join(dir, '.wave', 'runs', runId!, 'artifacts', 'vars', 'vars'), 'utf8');
}

describe('{{ forge.* }} in prompts and commands', () => {
  it("are the project's forge, as Wave's forge variables: type, host, owner, repo, cli_tool, prefix, pr_term, pr_command", async () => {
    const command =
      'printf "%s|" {{ forge.type }} {{ forge.host }} {{ forge.owner }} {{ forge.repo }} {{ forge.cli_tool }} {{ forge.prefix }} {{ forge.pr_term }} {{ forge.pr_command }}';
    const dir = forgedProject(command);
    const run = await runWave(['run', 'forged', '--output', 'text'], { cwd: dir });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(forgedVars(dir)).toBe('gitlab|gitlab.com|acme|widgets|glab|gl|Merge Request|mr|');
  });

  it("are the parent's forge in a child pipeline's steps", async () => {
    const parent = 'kind: WavePipeline\nmetadata: { name: parent }\nsteps:\n  - { id: child, pipeline: forged }\n';
    const dir = forgedProject("printf '%s|' {{ forge.type }} {{ forge.owner }} {{ forge.repo }}", { 'pipelines/parent.yaml': parent });
    const run = await runWave(['run', 'parent', '--output', 'quiet'], { cwd: dir });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(forgedVars(dir)).toBe('gitlab|acme|widgets|');
  });

  it('refuse a forge variable Wave does not have', async () => {
    const dir = repository(
      { origin: 'https://github.com/acme/widgets.git' },
      {
        'wave.yaml': manifest().replace('name: forged', 'name: forged, forge: github'),
        'pipelines/forged.yaml': PIPELINE.replace('exec: { source: \'printf %s "$WHO"\' }', 'exec: { source: "use {{ forge.cli }}" }'),
      },
    );
    const result = await runWave(['validate', 'forged'], { cwd: dir, env: {} });
    expect(result.stdout).toContain('template_invalid: unknown template variable: `forge.cli` is not a forge variable (known: forge.type, forge.host');
  });
});

describe('wave validate and persona names with {{ forge.type }}', () => {
  it('checks every forge type the name can resolve to, naming each missing persona, whatever the remote', async () => {
    const dir = repository({ origin: 'https://github.com/acme/widgets.git' });
    const result = await runWave(['validate', '--json'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toEqual([
      {
        code: 'unknown_persona',
        severity: 'error',
        file: 'pipelines/forged.yaml',
        line: 5,
        column: 14,
        message:
          'step `fetch` names persona `{{ forge.type }}-shell`, which resolves to personas the manifest does not declare: `gitea-shell` (gitea), `forgejo-shell` (forgejo), `codeberg-shell` (codeberg), `bitbucket-shell` (bitbucket), `local-shell` (local)',
        hint: 'Declare them under `personas`, or set `metadata.forge` in wave.yaml to the forge this project uses: then only its personas are needed.',
      },
    ]);
  });

  it("checks only metadata.forge's persona when the manifest names the forge", async () => {
    const dir = repository({}, { 'wave.yaml': manifest().replace('name: forged', 'name: forged, forge: github') });
    const result = await runWave(['validate'], { cwd: dir });
    expect(result.stdout).toBe('✓ wave.yaml\n✓ pipelines/forged.yaml\n2 files valid');
    const bitbucket = repository({}, { 'wave.yaml': manifest().replace('name: forged', 'name: forged, forge: bitbucket') });
    const missing = await runWave(['validate'], { cwd: bitbucket });
    expect(missing.code).toBe(2);
    expect(missing.stdout).toContain("which is `bitbucket-shell` (bitbucket) for this project's forge, and the manifest does not declare it");
  });

  it('refuses a metadata.forge that is no forge, listing the ones there are', async () => {
    const dir = repository({}, { 'wave.yaml': manifest().replace('name: forged', 'name: forged, forge: githib') });
    const result = await runWave(['validate'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('wave.yaml:2:34: wrong_type: `metadata.forge` is "githib"');
    expect(result.stdout).toContain('Did you mean `github`?');
  });
});
