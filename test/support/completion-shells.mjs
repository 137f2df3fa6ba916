// Drives the shell completion scripts of `wave` (found on `path`) in the real shells, for the completion tests and
// bench/attack-names.mjs. Each returns the shell's exit code and stderr with what the completion produced; none asserts.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where Debian's bash-completion package puts the functions an interactive shell loads. */
export const BASH_COMPLETION = '/usr/share/bash-completion/bash_completion';

/** Runs `command` and resolves with its exit code, stdout and stderr (never rejects). */
function run(command, args, { cwd, env }) {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env, timeout: 60_000, maxBuffer: 1 << 24 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout: String(stdout), stderr: String(stderr) }),
    );
  });
}

/** A HOME of its own for one shell (fish writes its history and variables there), removed afterwards. */
async function withHome(use) {
  const home = mkdtempSync(join(tmpdir(), 'wave-shell-home-'));
  try {
    return await use(home);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** Sources the bash script (twice: a re-read ~/.bashrc) and calls what `complete -p wave` registered for Tab at the end of `line`: COMPREPLY. */
export async function bashReplies(line, { cwd, path, withBashCompletion }) {
  const script = [
    withBashCompletion ? `source ${BASH_COMPLETION}` : '',
    'source <(wave completion bash)',
    'source <(wave completion bash)',
    'COMP_LINE="$1"; COMP_POINT=${#COMP_LINE}',
    'read -r -a COMP_WORDS <<< "$COMP_LINE"',
    '[[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")',
    'COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))',
    'function=$(complete -p wave | sed -E "s/.*-F ([^ ]+) .*/\\1/")',
    '"$function" wave "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}" 2>/dev/null',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  const result = await run('bash', ['--norc', '--noprofile', '-c', script, 'bash', line], { cwd, env: { PATH: path } });
  return { ...result, replies: result.stdout.split('\n').filter(Boolean) };
}

/** Each completion bash inserted, read back as bash reads the line when Enter is pressed (eval, in `cwd`): the words it makes. */
export async function readByBash(replies, cwd) {
  const script = 'for reply; do eval "set -- $reply"; printf "%s\\0" "$#" "$@"; done';
  const out = (await run('bash', ['--norc', '--noprofile', '-c', script, 'bash', ...replies], { cwd, env: {} })).stdout.split('\0');
  const words = [];
  for (let i = 0; i < out.length - 1; i += Number(out[i]) + 1) words.push(out.slice(i + 1, i + 1 + Number(out[i])));
  return words;
}

/**
 * Types the line in an interactive zsh (compinit, the script sourced) on a terminal of its own (zsh's zpty), presses
 * a key that completes as Tab does and records the line, and prints the words zsh reads the line as (unquoted, never
 * evaluated), NUL-separated.
 */
const ZSH_DRIVER = `
zmodload zsh/zpty
local line=$1 out=$2
zpty z zsh -f -i
zpty -w z "PS1='> '; autoload -Uz compinit; compinit -u -D; source <(wave completion zsh); tab-then-record() { zle complete-word; print -r -- \\"\\$BUFFER\\" > \${(q)out}; BUFFER=; zle accept-line; }; zle -N tab-then-record; bindkey '^X' tab-then-record"
zpty -w -n z "$line"$'\\x18'
for i in {1..300}; do [[ -s $out ]] && break; sleep 0.1; done
zpty -d z
[[ -s $out ]] || { print -u2 "zsh recorded no line"; exit 1; }
local buffer=$(<$out)
print -rN -- "\${(Q@)\${(z)buffer}}"
`;

/** The words of the line after an interactive zsh completed `line` in `cwd`. */
export function zshWords(line, { cwd, path }) {
  return withHome(async (home) => {
    const result = await run('zsh', ['-f', '-c', ZSH_DRIVER, 'zsh', line, join(home, 'line')], { cwd, env: { PATH: path, HOME: home } });
    return { ...result, words: result.stdout.split('\0').slice(0, -1) };
  });
}

/** The candidates fish offers for `line` (`complete -C`, the script sourced), without their descriptions. */
export function fishCandidates(line, { cwd, path }) {
  return withHome(async (home) => {
    const script = 'wave completion fish | source; complete -C $argv[1]';
    const result = await run('fish', ['--no-config', '-c', script, line], { cwd, env: { PATH: path, HOME: home, XDG_CONFIG_HOME: home, XDG_DATA_HOME: home } });
    return {
      ...result,
      candidates: result.stdout
        .split('\n')
        .filter(Boolean)
        .map((candidate) => candidate.split('\t')[0]),
    };
  });
}
