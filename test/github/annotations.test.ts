import { describe, expect, it } from 'vitest';
import { makeProject } from '../support/project.js';
import { backendAvailable } from '../support/sandbox.js';
import { lineOf, runAction } from './run-action.js';

/** A step whose json_schema contract only warns: out.json has `ok` as a number, the schema wants a string. */
const WARNED = `kind: WavePipeline
metadata: { name: checked }
steps:
  - id: make
    exec: { type: command, source: "echo '{\\"ok\\": 1}' > out.json" }
    handover:
      contract:
        type: json_schema
        source: out.json
        schema: { type: object, required: [ok], properties: { ok: { type: string } } }
        on_failure: warn
`;

/** The shell adapter, steps in bubblewrap, only allowed.test reachable through the egress proxy. */
const SANDBOXED_MANIFEST = `kind: WaveManifest
metadata: { name: egress }
adapters:
  shell: { type: process, binary: sh, args: ["-c", "{{prompt}}"] }
runtime:
  timeouts: { process_grace_seconds: 1 }
  sandbox:
    backend: bubblewrap
    default_allowed_domains: [allowed.test]
`;

/** A command step asking for a host off the allowlist through the proxy (HTTPS_PROXY and HTTP_PROXY are set inside). */
const FETCHES = `kind: WavePipeline
metadata: { name: fetch }
steps:
  - id: fetch
    exec: { type: command, source: "curl -sS -m 20 -o /dev/null -w 'status=%{http_code}' http://denied.example/" }
`;

describe('the GitHub Action’s warning annotations', () => {
  it('warns at the step’s line when its contract fails with on_failure: warn, and the run still succeeds', async () => {
    const project = makeProject({ 'pipelines/checked.yaml': WARNED });
    const run = await runAction(project, { pipeline: 'checked' });
    expect(run.code, run.stdout).toBe(0);
    expect(run.outputs.conclusion).toBe('success');
    const warnings = run.stdout.match(/^::warning [^\n]*$/gm) ?? [];
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      new RegExp(`^::warning title=Step make%3A contract .*json_schema.* failed,file=pipelines/checked\\.yaml,line=${lineOf(WARNED, 'id: make')},col=\\d+::`),
    );
    expect(warnings[0]).toContain('must be string');
    expect(run.stdout).not.toMatch(/^::error/m);
  });

  describe.skipIf(!backendAvailable('bubblewrap'))('in a bubblewrap sandbox', () => {
    it('warns at the step’s line when the egress proxy refuses a host', async () => {
      const project = makeProject({ 'wave.yaml': SANDBOXED_MANIFEST, 'pipelines/fetch.yaml': FETCHES });
      const run = await runAction(project, { pipeline: 'fetch' });
      expect(run.code, run.stdout).toBe(0);
      // The proxy's own refusal reached the step: the request was made and denied, not lost.
      expect(run.stdout).toContain('status=403');
      const warnings = run.stdout.match(/^::warning [^\n]*$/gm) ?? [];
      expect(warnings).toEqual([
        `::warning title=Step fetch%3A egress denied,file=pipelines/fetch.yaml,line=${lineOf(FETCHES, 'id: fetch')},col=5::denied.example:80 was refused (no entry matches it).`,
      ]);
    }, 60_000);
  });
});
