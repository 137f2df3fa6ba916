/**
 * The bash script the completion library writes, made safe to source anywhere:
 * - its constants are declared `readonly`, so sourcing it again (a re-read ~/.bashrc) or after another CLI's script of
 *   the same library printed "readonly variable" errors; they are set only where unset instead;
 * - it reads the line with bash-completion's `_get_comp_words_by_ref`, which a shell without that package (stock macOS
 *   bash, a minimal Linux) lacks; there, for the time of one completion only, a stand-in splits the line bash hands over
 *   on blanks, as bash-completion does with `-n "=:"`.
 */
export function adaptBashScript(script: string, name: string): string {
  const constants = script.replace(/^readonly (\w+)=(\d+)$/gm, ': "${$1:=$2}"');
  return `${constants.trimEnd()}
${withoutBashCompletion(name)}`;
}

function withoutBashCompletion(name: string): string {
  return `
# Without the bash-completion package, the words come from the line bash hands over, split on blanks.
__${name}_complete_anywhere() {
    if declare -F _get_comp_words_by_ref >/dev/null; then
        __${name}_complete
        return
    fi
    _get_comp_words_by_ref() {
        local line="\${COMP_LINE:0:COMP_POINT}"
        IFS=$' \\t\\n' read -r -a words <<< "$line"
        if [[ -z "$line" || "$line" == *[[:space:]] ]]; then
            words+=("")
        fi
        cword=$(( \${#words[@]} - 1 ))
        cur="\${words[cword]}"
        prev="\${words[cword > 0 ? cword - 1 : 0]}"
    }
    __${name}_complete
    unset -f _get_comp_words_by_ref
}
complete -F __${name}_complete_anywhere ${name}
`;
}
