/** The forges Wave tells apart (internal/forge/detect.go), `local` for a repository without a remote. */
export const FORGE_TYPES = ['github', 'gitlab', 'gitea', 'forgejo', 'codeberg', 'bitbucket', 'local'] as const;
export type ForgeType = (typeof FORGE_TYPES)[number];

/** What `metadata.forge` may say: a forge type, or Wave's `none` (the same as local). */
export const FORGE_OVERRIDES = [...FORGE_TYPES, 'none'] as const;

/** The forge of a repository, as Wave's `forge.*` template variables give it. */
export interface ForgeInfo {
  /** undefined when the remote's host is not one Wave recognises by name (Wave would probe it over HTTP). */
  type?: ForgeType;
  host: string;
  owner: string;
  repo: string;
  /** The remote URL it came from; absent without one. */
  remote?: string;
}

/** The `forge.*` variables a persona name may use. */
export const FORGE_VARIABLES = ['forge.type', 'forge.host', 'forge.owner', 'forge.repo'] as const;
export type ForgeVariable = (typeof FORGE_VARIABLES)[number];

/** Wave's parseRemoteURL: host, owner and repo of an SSH (`git@host:o/r.git`, `ssh://git@host/o/r`) or HTTP(S) remote. */
export function parseRemoteUrl(url: string): { host: string; owner: string; repo: string } | undefined {
  const text = url.trim();
  if (text.startsWith('ssh://')) return hostPath(text.slice('ssh://'.length).replace(/^[^@/]*@/, ''));
  if (text.includes('@') && !/^https?:\/\//.test(text)) {
    const at = text.indexOf('@');
    const colon = text.indexOf(':', at);
    if (colon < 0) return undefined;
    const [owner = '', repo = ''] = splitOnce(text.slice(colon + 1).replace(/\.git$/, ''));
    return { host: text.slice(at + 1, colon), owner, repo };
  }
  const scheme = /^https?:\/\//.exec(text);
  return scheme ? hostPath(text.slice(scheme[0].length)) : undefined;
}

/** `host/owner/repo[.git]`, a user or token before the host dropped (Wave's parseHTTPSPath). */
function hostPath(path: string): { host: string; owner: string; repo: string } | undefined {
  const slash = path.indexOf('/');
  const withoutUser = slash > 0 ? path.slice(path.slice(0, slash).lastIndexOf('@') + 1) : path;
  const [host = '', rest = ''] = splitOnce(withoutUser.replace(/\.git$/, ''));
  const [owner = '', repo = ''] = splitOnce(rest);
  return host ? { host, owner, repo } : undefined;
}

function splitOnce(text: string): [string, string] {
  const slash = text.indexOf('/');
  return slash < 0 ? [text, ''] : [text.slice(0, slash), text.slice(slash + 1)];
}

/**
 * Wave's classifyHost, without its network probes: WAVE_GITEA_HOSTS / WAVE_FORGEJO_HOSTS list self-hosted
 * instances; then the host names of github, gitlab, bitbucket, codeberg, and any host naming gitea or forgejo.
 */
export function classifyForgeHost(host: string, env: NodeJS.ProcessEnv): ForgeType | undefined {
  const h = host.toLowerCase();
  const listed = (name: string) => (env[name] ?? '').split(',').some((entry) => entry.trim().toLowerCase() === h);
  if (listed('WAVE_GITEA_HOSTS')) return 'gitea';
  if (listed('WAVE_FORGEJO_HOSTS')) return 'forgejo';
  const is = (domain: string) => h === domain || h.endsWith(`.${domain}`);
  if (is('github.com')) return 'github';
  if (is('gitlab.com')) return 'gitlab';
  if (is('bitbucket.org')) return 'bitbucket';
  if (h.includes('gitea')) return 'gitea';
  if (h.includes('forgejo')) return 'forgejo';
  if (is('codeberg.org')) return 'codeberg';
  return undefined;
}

/** Wave's pickFetchRemoteURL: the fetch URL of `origin`, else of the first remote listed by `git remote -v`. */
export function pickFetchRemote(gitRemoteOutput: string): string | undefined {
  let first: string | undefined;
  for (const line of gitRemoteOutput.split('\n')) {
    const [name, url, kind] = line.trim().split(/\s+/);
    if (kind !== '(fetch)' || !url) continue;
    if (name === 'origin') return url;
    first ??= url;
  }
  return first;
}

/**
 * The forge of a repository whose fetch remote is `remote` (undefined: none). `override` (`metadata.forge`) names
 * the type whatever the remote says (`none` is `local`); host, owner and repo still come from the remote.
 */
export function forgeOf(remote: string | undefined, override: string | undefined, env: NodeJS.ProcessEnv): ForgeInfo {
  const parsed = remote === undefined ? undefined : parseRemoteUrl(remote);
  const where = { host: parsed?.host ?? '', owner: parsed?.owner ?? '', repo: parsed?.repo ?? '', ...(remote === undefined ? {} : { remote }) };
  const forced = override?.toLowerCase();
  if (forced) return { type: forced === 'none' ? 'local' : (forced as ForgeType), ...where };
  if (remote === undefined) return { type: 'local', ...where };
  return { type: parsed ? classifyForgeHost(parsed.host, env) : undefined, ...where };
}

// `{{ forge.type }}`, spaced or not, as Wave's ResolvePlaceholders reads it.
const FORGE_REFERENCE = /\{\{\s*(forge\.[a-z_]+)\s*\}\}/g;

/** The `forge.*` variables a name uses, each once (unknown ones included, so they can be reported). */
export function forgeReferences(name: string): string[] {
  return [...new Set([...name.matchAll(FORGE_REFERENCE)].map((m) => m[1]!))];
}

/** The name with each `{{ forge.<var> }}` replaced by `values` (a variable without a value is left as written). */
export function substituteForge(name: string, values: Partial<Record<string, string>>): string {
  return name.replace(FORGE_REFERENCE, (whole, variable: string) => values[variable] ?? whole);
}

/** The values of the `forge.*` variables for one forge; a value the forge lacks (no remote: no owner) is absent. */
export function forgeValues(info: ForgeInfo): Partial<Record<ForgeVariable, string>> {
  const values: Partial<Record<ForgeVariable, string>> = {};
  if (info.type) values['forge.type'] = info.type;
  if (info.host) values['forge.host'] = info.host;
  if (info.owner) values['forge.owner'] = info.owner;
  if (info.repo) values['forge.repo'] = info.repo;
  return values;
}

/** Wave's `forge.*` template variables (InjectForgeVariables, internal/pipeline/context.go), in prompts and commands. */
export const FORGE_TEMPLATE_VARIABLES = [...FORGE_VARIABLES, 'forge.cli_tool', 'forge.prefix', 'forge.pr_term', 'forge.pr_command'] as const;

/** Wave's forgeMetadata: the CLI, pipeline prefix, pull request term and command of each forge. */
const FORGE_METADATA: Record<ForgeType, { cli: string; prefix: string; prTerm: string; prCommand: string }> = {
  github: { cli: 'gh', prefix: 'gh', prTerm: 'Pull Request', prCommand: 'pr' },
  gitlab: { cli: 'glab', prefix: 'gl', prTerm: 'Merge Request', prCommand: 'mr' },
  bitbucket: { cli: 'bb', prefix: 'bb', prTerm: 'Pull Request', prCommand: 'pr' },
  gitea: { cli: 'tea', prefix: 'gt', prTerm: 'Pull Request', prCommand: 'pr' },
  forgejo: { cli: 'tea', prefix: 'gt', prTerm: 'Pull Request', prCommand: 'pr' },
  codeberg: { cli: 'tea', prefix: 'gt', prTerm: 'Pull Request', prCommand: 'pr' },
  local: { cli: '', prefix: 'local', prTerm: '', prCommand: '' },
};

/** The value of every `forge.*` template variable for a forge; Wave's `unknown` forge has empty ones. */
export function forgeTemplateValues(info: ForgeInfo): Record<(typeof FORGE_TEMPLATE_VARIABLES)[number], string> {
  const meta = info.type ? FORGE_METADATA[info.type] : { cli: '', prefix: '', prTerm: '', prCommand: '' };
  return {
    'forge.type': info.type ?? 'unknown',
    'forge.host': info.host,
    'forge.owner': info.owner,
    'forge.repo': info.repo,
    'forge.cli_tool': meta.cli,
    'forge.prefix': meta.prefix,
    'forge.pr_term': meta.prTerm,
    'forge.pr_command': meta.prCommand,
  };
}
