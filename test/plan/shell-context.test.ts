import { describe, expect, it } from 'vitest';
import { shellContexts } from '../../src/plan/shell-context.js';
import { templateReferences } from '../../src/plan/templates.js';

const contexts = (script: string) => shellContexts(script, templateReferences(script));

describe("shellContexts: where a command's template references sit", () => {
  it.each([
    ['echo "{{ input }}"', 'double quotes'],
    ["echo '{{ input }}'", 'single quotes'],
    ['echo "Review: {{ steps.gen.output }} now"', 'double quotes'],
    ["printf '%s\\n' 'a {{ input }} b'", 'single quotes'],
    ['x="$(echo "{{ input }}")"', 'double quotes'],
    ['echo "`echo "{{ input }}"`"', 'double quotes'],
    ['cat <<EOF\n{{ input }}\nEOF', 'a heredoc'],
    ["cat <<'EOF'\nline {{ input }}\nEOF", "a quoted heredoc (<<'EOF')"],
    ['cat <<"END" > out\n  {{ input }}\nEND', "a quoted heredoc (<<'EOF')"],
    ['cat <<\\EOF\n{{ input }}\nEOF', "a quoted heredoc (<<'EOF')"],
    ['cat <<EOF\nsay "{{ input }}" and \'{{ input }}\'\nEOF', ['a heredoc', 'a heredoc']],
    ['cat <<EOF\n$(printf %s "{{ input }}")\nEOF', 'double quotes'],
    ["echo $'{{ input }}'", "a $'…' string"],
    ["echo $'it\\'s {{ input }}'", "a $'…' string"],
    ['echo "$\'{{ input }}\'"', 'double quotes'],
    ['cat <<-EOF\n\t{{ input }}\n\tEOF', 'a heredoc'],
    ['x=$(cat <<EOF\n{{ input }}\nEOF\n)', 'a heredoc'],
    ['cat <<A <<B\none\nA\n{{ input }}\nB', 'a heredoc'],
  ])('%j: inside %s', (script, where) => {
    expect(contexts(script)).toEqual(Array.isArray(where) ? where : [where]);
  });

  it.each([
    'echo {{ input }}',
    "printf '%s' {{ input }} > out",
    'echo "Review:" {{ input }} "done"',
    'x=$(printf %s {{ input }})',
    'x="$(printf %s {{ input }})"',
    'x=`printf %s {{ input }}`',
    'x="${y:-{{ input }}}"',
    'echo ${#x} {{ input }}',
    "echo don''t {{ input }}",
    'echo "a\\"b" {{ input }}',
    'cat <<< {{ input }}',
    'echo $(( 1 << 2 )) {{ input }}',
    'cat <<EOF\nbody\nEOF\necho {{ input }}',
    'cat <<-EOF\n\tbody\n\tEOF\necho {{ input }}',
    'cat <<EOF\n$(printf %s {{ input }})\nEOF',
    'cat <<EOF\n`printf %s {{ input }}`\nEOF',
    "# a comment with a quote ' in it\necho {{ input }}",
    'echo "#not a comment" {{ input }}',
    'a={{ steps.a.output }}; b={{ steps.b.output }}\nprintf \'{"n": %s}\\n\' {{ input }} "$a" "$((a + b))"',
  ])('%j: a plain word', (script) => {
    expect(contexts(script).every((c) => c === undefined)).toBe(true);
  });

  it('tells each reference of one script apart', () => {
    expect(contexts('echo {{ input }} "{{ run.id }}" \'{{ step.id }}\' {{ pipeline.name }}')).toEqual([undefined, 'double quotes', 'single quotes', undefined]);
  });
});
