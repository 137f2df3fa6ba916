/** A gate between two command steps (prep → approve → ship, which echoes the gate's output); `gate` is its YAML body (indented 6). */
export function gatedPipeline(gate: string): string {
  return `kind: WavePipeline
metadata: { name: gated }
steps:
  - id: prep
    exec: { type: command, source: "echo prepared" }
  - id: approve
    type: gate
    dependencies: [prep]
    gate:
${gate}
  - id: ship
    dependencies: [approve]
    exec: { type: command, source: "echo shipped {{ steps.approve.output }}" }
`;
}

/** An approval gate's body (indented 6) with free text: ship (`y`, the default) or abort (`n`), then the `more` choices' lines. */
export function shipOrAbort(...more: string[]): string {
  return [
    '      type: approval',
    '      message: Ship it?',
    '      freeform: true',
    '      choices:',
    '        - { key: y, label: Ship, target: ship }',
    '        - { key: n, label: Abort, target: _fail }',
    ...more.map((choice) => `        - ${choice}`),
    '      default: y',
  ].join('\n');
}
