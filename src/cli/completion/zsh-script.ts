/**
 * Wave's zsh completion script, for `name`. The typed words reach `<name> complete` as arguments, never through
 * eval, and `_describe` inserts each candidate quoted (no `-Q`), so a pipeline file or a run named `$(…)` is
 * inserted as that text and runs nothing, at Tab or after. Sourced after compinit, or installed in $fpath as `_<name>`.
 */
export function zshScript(name: string): string {
  return `#compdef ${name}
# zsh completion for ${name}
_${name}() {
    local -a candidates
    local line
    # A candidate is "value<TAB>description"; the last line, ":<directive>", has no tab. _describe splits on ":".
    while IFS= read -r line; do
        [[ "$line" == *$'\\t'* ]] && candidates+=("\${\${line%%$'\\t'*}//:/\\\\:}:\${line#*$'\\t'}")
    done < <(command ${name} complete -- "\${(@)words[2,CURRENT]}" 2>/dev/null)
    _describe -t ${name} ${name} candidates
}
if [[ "\${funcstack[1]}" == _${name} ]]; then
    _${name} "$@"
else
    compdef _${name} ${name}
fi
`;
}
