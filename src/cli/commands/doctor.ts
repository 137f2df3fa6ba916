import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { execa } from 'execa';
import { detectAccessMode, type AccessMode } from '../../adapters/access-mode.js';
import { agentCliOfAdapter, defaultBinaryOf } from '../../adapters/agent-clis.js';
import { resolveBinary } from '../../process/binary.js';
import { loginStatus } from '../../adapters/login/check-login.js';
import { probeModelServer, type ServerProbe } from '../../adapters/llm/server-probe.js';
import type { LoginStatus } from '../../adapters/login/login-status.js';
import type { ResolvedAdapter } from '../../core/resolved-adapter.js';
import { findManifest, listPipelineFiles, located, readManifest, type Located } from '../../config/load/load.js';
import type { Manifest } from '../../config/schema/manifest-schema.js';
import { resolveAdapter } from '../../plan/resolve-step.js';
import { adapterTypeOf } from '../../config/schema/adapter-type.js';
import { browserReport, checkBrowser } from '../browser-check.js';
import { resolveSandboxPolicy } from '../../plan/sandbox-policy.js';
import { allBackendStatus, type BackendStatus } from '../../sandbox/backend-status.js';
import { EXIT } from '../../core/errors/exit-codes.js';
import { checkProjectRequirements, requirementsReport } from '../doctor-requirements.js';
import { missingSchemas, type MissingSchema } from '../schema-reference.js';

/** How long `<binary> --version` may take (Gemini needs a few seconds to start). */
const VERSION_TIMEOUT_MS = 20_000;

/** What doctor found about one adapter. */
export interface AdapterCheck {
  adapter: string;
  type: string;
  binary?: string;
  path?: string;
  version?: string;
  access: AccessMode;
  /** An agent CLI's credentials, checked with the environment a step gets. */
  login?: LoginStatus;
  /** An `llm` adapter's server: whether it answers. */
  server?: ServerProbe;
  model: string;
  usable: boolean;
  problems: string[];
  /** What to do about the problems. */
  hints: string[];
  /** Worth knowing, but the adapter can run. */
  warnings: string[];
}

async function versionOf(path: string): Promise<string | undefined> {
  const result = await execa(path, ['--version'], { reject: false, timeout: VERSION_TIMEOUT_MS, stdin: 'ignore', env: { NO_COLOR: '1' } });
  const line = String(result.stdout).trim().split('\n')[0];
  return result.exitCode === 0 && line ? line : undefined;
}

/** The key an `llm` adapter sends: its api_key_env variable, from the adapter's env or Wave's own (the runner's order). */
const llmKeyOf = (adapter: ResolvedAdapter, env: Record<string, string | undefined>) =>
  adapter.apiKeyEnv ? (adapter.env[adapter.apiKeyEnv] ?? env[adapter.apiKeyEnv]) : undefined;

/**
 * Checks every adapter of the manifest: binary and version, access mode, model; an agent CLI's login (with the
 * environment a step gets) and an `llm` adapter's server (does it answer).
 */
export async function checkAdapters(manifest: Located<Manifest>, env: Record<string, string | undefined>): Promise<AdapterCheck[]> {
  // A browser adapter is no agent: the browser check reports it.
  const names = Object.entries(manifest.value.adapters ?? {})
    .filter(([name, adapter]) => adapterTypeOf(name, adapter) !== 'browser')
    .map(([name]) => name);
  const passthrough = manifest.value.runtime?.sandbox?.env_passthrough ?? [];
  // Stands for the attempt folders: an isolated CLI's config home would be made in it, empty.
  const scratch = await mkdtemp(join(tmpdir(), 'wave-doctor-'));
  try {
    return await Promise.all(
      names.map(async (name): Promise<AdapterCheck> => {
        const adapter = resolveAdapter(manifest.value, name);
        const problems: string[] = [];
        const hints: string[] = [];
        const warnings: string[] = [];
        const binary = adapter.type === 'llm' ? undefined : (adapter.binary ?? agentCliOfAdapter(adapter)?.binary ?? defaultBinaryOf(adapter.type));
        const path = binary ? resolveBinary(binary, env, manifest.dir) : undefined;
        if (binary && !path) problems.push(`binary "${binary}" not found on PATH or in node_modules/.bin`);
        const version = path && adapter.type !== 'process' ? await versionOf(path) : undefined;
        if (path && adapter.type !== 'process' && !version) problems.push(`"${binary} --version" failed`);
        const access = detectAccessMode(adapter, env, passthrough);
        const login = path ? await loginStatus({ adapter, parent: env, passthrough, binaryPath: path, scratchDir: join(scratch, name), projectDir: manifest.dir }) : undefined;
        // A CLI's own login check knows better than the access mode whether it can reach its model.
        if (access.mode === 'none' && !login) problems.push(`no access: ${access.detail}`);
        if (login?.state === 'missing') problems.push(`not logged in: ${login.detail}`);
        if (login?.state === 'unknown') warnings.push(`could not tell whether it is logged in: ${login.detail}`);
        if (login?.hint) hints.push(login.hint);
        if (login?.warning) warnings.push(login.warning);
        const server = adapter.type === 'llm' && adapter.baseUrl ? await probeModelServer(name, adapter.baseUrl, llmKeyOf(adapter, env)) : undefined;
        if (server && !server.ok) problems.push(`model server: ${server.detail}`);
        if (server?.hint && !server.ok) hints.push(server.hint);
        return {
          adapter: name,
          type: adapter.type,
          ...(binary ? { binary } : {}),
          ...(path ? { path } : {}),
          ...(version ? { version } : {}),
          access,
          ...(login ? { login } : {}),
          ...(server ? { server } : {}),
          model: adapter.type === 'process' ? '-' : (adapter.model ?? "(the CLI's default)"),
          usable: problems.length === 0,
          problems,
          hints,
          warnings,
        };
      }),
    );
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Each sandbox backend on this machine, the manifest's own first: what `wave run` would find before its first step. */
export async function checkSandboxes(manifest: Located<Manifest>, env: NodeJS.ProcessEnv): Promise<BackendStatus[]> {
  return allBackendStatus(resolveSandboxPolicy(manifest.value.runtime), env);
}

function sandboxReport(statuses: BackendStatus[]): string {
  const lines = statuses.map((s) => {
    const head = `${s.usable ? 'ok  ' : s.configured ? 'FAIL' : 'no  '} sandbox ${s.backend}${s.configured ? ' (configured)' : ''}`;
    return [head, ...(s.problem ? [`  problem: ${s.problem}`] : []), ...(s.hint ? [`  hint: ${s.hint}`] : []), ...s.warnings.map((w) => `  warning: ${w}`)].join('\n');
  });
  return `${lines.join('\n')}\n`;
}

function textReport(checks: AdapterCheck[]): string {
  const lines = checks.map((c) => {
    const head = `${c.usable ? 'ok  ' : 'FAIL'} ${c.adapter} (${c.type})`;
    const where = c.binary ? `  binary: ${c.path ?? `${c.binary} (not found)`}${c.version ? `  version: ${c.version}` : ''}` : '';
    // A CLI's login check says more than its access mode, which only looks for the usual variables and files.
    const access = c.login ? `  model: ${c.model}` : `  access: ${c.access.mode} (${c.access.detail})  model: ${c.model}`;
    const login = c.login && c.login.state !== 'missing' ? `  login: ${c.login.detail}` : '';
    const server = c.server?.ok ? `  server: ${c.server.detail}` : '';
    const notes = [...c.problems.map((p) => `  problem: ${p}`), ...c.hints.map((h) => `  hint: ${h}`), ...c.warnings.map((w) => `  warning: ${w}`)];
    return [head, where, access, login, server, ...notes].filter(Boolean).join('\n');
  });
  return `${lines.join('\n')}\n`;
}

/** The manifest's and pipelines' `$schema` lines that name a missing file, whose editor then checks nothing. */
function checkSchemaLines(manifest: Located<Manifest>, cwd: string): MissingSchema[] {
  return [...missingSchemas([resolve(manifest.file)], 'manifest', cwd), ...missingSchemas(listPipelineFiles(manifest.dir), 'pipeline', cwd)];
}

/** One warning per missing schema: an editor aid, so it never fails doctor. */
function schemaLinesReport(missing: readonly MissingSchema[], cwd: string): string {
  return missing.map((m) => `warn schema ${relative(cwd, m.file) || m.file}: $schema=${m.ref} does not exist\n  hint: ${m.hint}\n`).join('');
}

/** `wave doctor [--json]`: is every adapter of the manifest installed and able to reach a model? */
export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description(
      "Check each adapter (binary and version, access mode, model, an agent CLI's login, an llm adapter's server), each sandbox backend, the browser browser steps drive, and the $schema lines editors read.",
    )
    .option('-m, --manifest <file>', 'the manifest (default: wave.yaml here or in a parent folder)')
    .option('--json', 'print the checks as JSON')
    .action(async (flags: { manifest?: string; json?: boolean }) => {
      // Read once: the adapters and sandbox need it valid, the requirements only what a partly invalid one declares.
      const read = await readManifest(findManifest(process.cwd(), flags.manifest), process.env);
      const manifest = located(read);
      const schemas = checkSchemaLines(manifest, process.cwd());
      const [checks, sandboxes, requirements, browser] = await Promise.all([
        checkAdapters(manifest, process.env),
        checkSandboxes(manifest, process.env),
        checkProjectRequirements(read, process.env),
        checkBrowser(manifest, process.env),
      ]);
      process.stdout.write(
        flags.json
          ? `${JSON.stringify({ adapters: checks, sandboxes, browser, requirements, schemas }, null, 2)}\n`
          : textReport(checks) + sandboxReport(sandboxes) + browserReport(browser) + requirementsReport(requirements) + schemaLinesReport(schemas, process.cwd()),
      );
      // A backend the manifest does not use may be missing; the configured one must work; a pipeline's requirements must be here.
      // The browser must work only when something uses it.
      const browserOk = browser.usable || browser.usedBy.length === 0;
      const usable = checks.every((c) => c.usable) && sandboxes.every((s) => s.usable || !s.configured) && browserOk && requirements.every((r) => r.ok || r.optional);
      process.exitCode = usable ? EXIT.ok : EXIT.runFailed;
    });
}
