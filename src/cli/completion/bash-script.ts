/**
 * Wave's bash completion script, for `name`. The typed words reach `<name> complete` as arguments, never through
 * eval, and each candidate is offered quoted by `printf %q` (never through `compgen -W`, which expands the words it
 * is given), so a pipeline file or a run named `$(…)` is inserted as that text and runs nothing, at Tab or after.
 * The line is read by bash-completion's `_get_comp_words_by_ref` when that is loaded, else split on blanks as bash
 * hands it over (stock macOS bash, a minimal Linux). It only defines a function and a `complete`: sourcing it again
 * (a re-read ~/.bashrc) is silent.
 */
export function bashScript(name: string): string {
  return `# bash completion for ${name}
__${name}_complete() {
    local cur words cword line
    if declare -F _get_comp_words_by_ref >/dev/null; then
        _get_comp_words_by_ref -n "=:" cur words cword
    else
        line="\${COMP_LINE:0:COMP_POINT}"
        IFS=$' \\t\\n' read -r -a words <<< "$line"
        if [[ -z "$line" || "$line" == *[[:space:]] ]]; then
            words+=("")
        fi
        cword=$(( \${#words[@]} - 1 ))
    fi
    COMPREPLY=()
    # A candidate is "value<TAB>description"; the last line, ":<directive>", has no tab.
    while IFS= read -r line; do
        [[ "$line" == *$'\\t'* ]] && COMPREPLY+=("$(printf '%q' "\${line%%$'\\t'*}")")
    done < <(command ${name} complete -- "\${words[@]:1:cword}" 2>/dev/null)
}
complete -F __${name}_complete ${name}
`;
}
