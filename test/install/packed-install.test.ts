// The package as a user gets it: `npm pack`, installed with npm into a temporary prefix (and through `npm exec`), run
// from an empty folder outside this repository. Slow (npm installs for real), so it is one file; npm's own cache is
// used, so only a cold cache reaches the registry.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.js';

const NPM_TIMEOUT_MS = 240_000;
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** What the tarball may hold: what runs (the CLI, and the API with its types), what `wave init` copies, and the package's documents (README and the docs/ pages it links to). */
const SHIPPED = [
  /^package\.json$/,
  /^README\.md$/,
  /^docs\/[\w-]+\.md$/,
  /^LICENSE$/,
  /^bin\/wave\.cjs$/,
  /^dist\/bundle\/(wave|described|dockerode|otlp|verb-[a-z]+)\.cjs$/,
  /^dist\/bundle\/(api|adapter)\.(js|d\.ts)$/,
  /^schemas\/\w+\.schema\.json$/,
  /^personas\/[\w-]+\.md$/,
  /^pipelines\/[\w-]+\.yaml$/,
  /^templates\/init\/[\w/-]+\.yaml$/,
  /^wave\.yaml$/,
];

let work: string;
let tarball: string;
let packed: string[];
/** npm's settings as on a fresh machine: no user config, none inherited from an `npm test` around this run. */
let npmEnv: Record<string, string>;
let npxEntriesBefore: Set<string>;

function npxDir(): string {
  return join(execFileSync('npm', ['config', 'get', 'cache'], { env: npmEnv, encoding: 'utf8' }).trim(), '_npx');
}

function listed(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir) : [];
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'wave-packed-'));
  writeFileSync(join(work, 'npmrc'), '');
  npmEnv = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => !entry[0].toLowerCase().startsWith('npm_') && entry[1] !== undefined));
  Object.assign(npmEnv, { npm_config_userconfig: join(work, 'npmrc'), npm_config_update_notifier: 'false', npm_config_audit: 'false', npm_config_fund: 'false', NO_COLOR: '1' });
  npxEntriesBefore = new Set(listed(npxDir()));
  // Packed as it ships (scripts/pack.mjs); dist/ is built before the tests run (npm test builds first).
  const pack = await execa('node', [join(ROOT, 'scripts', 'pack.mjs'), '--pack-destination', work], { cwd: ROOT, env: npmEnv, extendEnv: false });
  tarball = pack.stdout.trim();
  packed = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((path) => path.replace(/^package\//, ''));
}, NPM_TIMEOUT_MS);

afterAll(() => {
  // npm exec keeps what it installed in its cache under a hash of the spec; this test's are removed.
  if (npmEnv) for (const entry of listed(npxDir())) if (!npxEntriesBefore.has(entry)) rmSync(join(npxDir(), entry), { recursive: true, force: true });
  if (work) rmSync(work, { recursive: true, force: true });
});

/** An empty folder outside this repository. */
function emptyFolder(name: string): string {
  const dir = join(work, name);
  mkdirSync(dir);
  return dir;
}

function hasInstallScript(packageJson: string): boolean {
  const { scripts = {} } = JSON.parse(readFileSync(packageJson, 'utf8')) as { scripts?: Record<string, string> };
  return ['preinstall', 'install', 'postinstall'].some((name) => name in scripts);
}

/** npm's warnings that a user would see about install scripts or engines. */
function installWarnings(output: string): string[] {
  return output.split('\n').filter((line) => /install-scripts|EBADENGINE|gyp/i.test(line));
}

/**
 * Installs the tarball with npm -g into `prefix` as a user does, and checks it installed warning about nothing: npm
 * lists any script it would ask to approve (a shipped `prepare` among them), and --foreground-scripts shows any that runs.
 */
async function installGlobally(prefix: string) {
  const install = await execa('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', '--foreground-scripts', tarball], {
    cwd: work,
    env: npmEnv,
    extendEnv: false,
    all: true,
    reject: false,
    timeout: NPM_TIMEOUT_MS,
  });
  expect(install.exitCode, install.all).toBe(0);
  expect(installWarnings(install.all), install.all).toEqual([]);
  return install;
}

describe('the packed package', () => {
  it('holds only what runs: no tests, no sources, no source maps, no code cache, no install scripts', () => {
    expect(packed.filter((path) => !SHIPPED.some((pattern) => pattern.test(path)))).toEqual([]);
    expect(packed).toEqual(expect.arrayContaining(['bin/wave.cjs', 'dist/bundle/wave.cjs', 'LICENSE', 'templates/init/pipelines/hello.yaml']));
    // README.md links to the docs/ pages, so an installed package carries them all.
    expect(packed).toEqual(expect.arrayContaining(readdirSync(join(ROOT, 'docs')).map((name) => `docs/${name}`)));
    const contents = join(work, 'contents');
    mkdirSync(contents);
    execFileSync('tar', ['-xzf', tarball, '-C', contents]);
    // Nothing in it names the machine it was built on.
    const naming = packed.filter((path) => readFileSync(join(contents, 'package', path), 'utf8').includes(ROOT.replace(/\/$/, '')));
    expect(naming).toEqual([]);
    // No script at all: not even the clone's `prepare`, which npm would list to a user installing the tarball.
    const manifest = JSON.parse(readFileSync(join(contents, 'package', 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).not.toHaveProperty('scripts');
    // The agent CLIs' pins stay: `wave compile` installs those versions in the jobs it writes.
    expect(manifest.devDependencies).toHaveProperty('@anthropic-ai/claude-code');
    expect(manifest.dependencies).toEqual(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).dependencies);
  });

  it(
    'installs with npm -g into a prefix, warning about nothing, and runs wave init and its pipeline from an empty folder',
    async () => {
      const prefix = join(work, 'prefix');
      const install = await installGlobally(prefix);
      expect(install.all).not.toMatch(/^> /m);
      const packageDir = join(prefix, 'lib', 'node_modules', 'wave-pipelines');
      // No runtime dependency has an install script to warn about.
      const modules = join(packageDir, 'node_modules');
      const withScripts = readdirSync(modules, { recursive: true })
        .map(String)
        .filter((path) => path.endsWith('binding.gyp') || (path.endsWith('package.json') && hasInstallScript(join(modules, path))));
      expect(withScripts).toEqual([]);

      const env = { ...npmEnv, PATH: `${join(prefix, 'bin')}${delimiter}${process.env.PATH ?? ''}` };
      const wave = (args: string[], cwd: string, extra: Record<string, string> = {}) =>
        execa('wave', args, { cwd, env: { ...env, ...extra }, extendEnv: false, all: true, reject: false, timeout: NPM_TIMEOUT_MS });
      const empty = emptyFolder('global');
      const version = await wave(['--version'], empty);
      expect(version.stdout).toBe(VERSION);
      // A bundle's code cache is made here, by its first run, never shipped: `--version` names no verb, init is the whole CLI's.
      expect(existsSync(join(packageDir, 'dist', 'bundle', 'described.cjs.cache'))).toBe(true);
      expect(existsSync(join(packageDir, 'dist', 'bundle', 'wave.cjs.cache'))).toBe(false);

      const init = await wave(['init', 'my-project'], empty);
      expect(init.exitCode, init.all).toBe(0);
      expect(existsSync(join(packageDir, 'dist', 'bundle', 'wave.cjs.cache'))).toBe(true);
      expect(init.stdout).toContain('next: cd my-project && wave run hello');
      const run = await wave(['run', 'hello', '--input', 'Wave checks everything'], join(empty, 'my-project'));
      expect(run.exitCode, run.all).toBe(0);
      expect(run.all).toContain('everything');
      expect(
        JSON.parse(
          readFileSync(join(empty, 'my-project', '.wave', 'runs', readdirSync(join(empty, 'my-project', '.wave', 'runs'))[0]!, 'artifacts', 'report', 'report.json'), 'utf8'),
        ),
      ).toEqual({
        words: 3,
        letters: 20,
        longest: 'everything',
      });

      // The Docker client comes from the package's own bundle: asked about a daemon that is not there, it says so.
      const doctor = await wave(['doctor'], join(empty, 'my-project'), { DOCKER_HOST: `unix://${join(work, 'no-docker.sock')}` });
      expect(doctor.all).toContain('the Docker daemon is not answering');
      expect(doctor.all).not.toContain('Cannot find module');
    },
    NPM_TIMEOUT_MS * 2,
  );

  it(
    'runs through npm exec with no install: wave init, then its pipeline',
    async () => {
      const empty = emptyFolder('npx');
      const exec = (args: string[], cwd: string) =>
        execa('npm', ['exec', '--yes', '--prefer-offline', '--package', tarball, '--', 'wave', ...args], {
          cwd,
          env: npmEnv,
          extendEnv: false,
          all: true,
          reject: false,
          timeout: NPM_TIMEOUT_MS,
        });
      const version = await exec(['--version'], empty);
      expect(version.exitCode, version.all).toBe(0);
      expect(version.stdout).toBe(VERSION);
      expect(installWarnings(version.all)).toEqual([]);
      expect((await exec(['init', 'project'], empty)).exitCode).toBe(0);
      const run = await exec(['run', 'hello', '--input', 'Wave checks everything'], join(empty, 'project'));
      expect(run.exitCode, run.all).toBe(0);
      expect(run.all).toContain('everything');
    },
    NPM_TIMEOUT_MS * 2,
  );
});

describe('the newcomer path, as the README walks it', () => {
  let server: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    server = await ((await import('../support/model-server.mjs')) as { startModelServer(): Promise<typeof server> }).startModelServer();
  });
  afterAll(async () => server?.close());

  it(
    'installs, scaffolds, runs hello, runs an agent step with only the key exported (told why it fails, then passing it), compiles into a new folder and cleans up',
    async () => {
      const prefix = join(work, 'newcomer-prefix');
      await installGlobally(prefix);
      // The agent CLI is the newcomer's own install: here the devDependency's.
      const path = [join(prefix, 'bin'), join(ROOT, 'node_modules', '.bin'), process.env.PATH ?? ''].join(delimiter);
      const exported = { ANTHROPIC_API_KEY: 'sk-ant-newcomer-0123456789', ANTHROPIC_BASE_URL: `${server.url}/s/text/${encodeURIComponent('Hello, newcomer.')}` };
      const wave = (args: string[], cwd: string) =>
        execa('wave', args, { cwd, env: { ...npmEnv, ...exported, PATH: path }, extendEnv: false, all: true, reject: false, timeout: NPM_TIMEOUT_MS });
      const project = join(emptyFolder('newcomer'), 'my-project');
      expect((await wave(['init', 'my-project'], dirname(project))).exitCode).toBe(0);
      expect((await wave(['run', 'hello', '--input', 'first steps'], project)).exitCode).toBe(0);

      writeFileSync(
        join(project, 'pipelines', 'ask.yaml'),
        'kind: WavePipeline\nmetadata: { name: ask }\nsteps:\n  - { id: ask, persona: navigator, exec: { source: "Say hello." } }\n',
      );
      const refused = await wave(['run', 'ask', '--output', 'text'], project);
      expect(refused.exitCode).toBe(1);
      // Before anything ran, what is wrong and what to do; after, the failure and its hint in the summary.
      expect(refused.stderr).toContain(
        'warning: ANTHROPIC_API_KEY is set here but steps on adapter `claude` will not see it: list it in runtime.sandbox.env_passthrough to use it',
      );
      expect(refused.stdout).toMatch(/✗ ask +failed .*auth_failed/);
      expect(refused.stdout).toMatch(/\n +hint: /);
      expect(refused.all).not.toContain(exported.ANTHROPIC_API_KEY);

      const manifest = join(project, 'wave.yaml');
      writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('env_passthrough: []', 'env_passthrough: [ANTHROPIC_API_KEY]'));
      const passed = await wave(['run', 'ask', '--output', 'text'], project);
      expect(passed.exitCode, passed.all).toBe(0);
      expect(passed.stderr).not.toContain('warning: ANTHROPIC_API_KEY');
      expect(passed.stdout).toContain('Hello, newcomer.');

      const compiled = await wave(['compile', 'ask', '-o', '.github/workflows/ask.yml'], project);
      expect(compiled.exitCode, compiled.all).toBe(0);
      expect(compiled.stderr).toContain('wrote .github/workflows/ask.yml');
      expect(readFileSync(join(project, '.github', 'workflows', 'ask.yml'), 'utf8')).toContain(`npx --yes wave-pipelines@${VERSION}`);

      const clean = await wave(['clean'], project);
      expect(clean.exitCode, clean.all).toBe(0);
      expect(clean.stdout).toMatch(/^removed ask-\S+: /m);
      expect((await wave(['clean'], project)).stdout).toContain('Nothing to clean');
    },
    NPM_TIMEOUT_MS * 2,
  );
});
