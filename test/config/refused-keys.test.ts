import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readManifest } from '../../src/config/load/load.js';
import { makeProject } from '../support/project.js';

/** The not_supported errors and warnings of a manifest whose first adapter carries `adapterLines` and runtime `runtimeLines`. */
async function refusals(adapterLines: string, runtimeLines: string): Promise<{ errors: string[]; warnings: string[] }> {
  const dir = makeProject({
    'wave.yaml': `kind: WaveManifest
metadata: { name: t }
adapters:
  claude:
    binary: claude
${adapterLines}personas:
  p: { adapter: claude }
runtime:
${runtimeLines}`,
  });
  const read = await readManifest(join(dir, 'wave.yaml'), {});
  const messages = (list: typeof read.errors) => list.filter((e) => e.code === 'not_supported').map((e) => e.message);
  return { errors: messages(read.errors), warnings: messages(read.warnings) };
}

describe('Wave keys of features this version does not run', () => {
  it('accepts each runtime.timeouts key of such a feature with a warning naming it (a limit of something no run here does), keeping the ones that have an effect', async () => {
    const keys = [
      'relay_compaction_minutes',
      'meta_default_minutes',
      'skill_cli_seconds',
      'skill_http_seconds',
      'skill_http_header_seconds',
      'skill_publish_seconds',
      'git_command_seconds',
    ];
    const { errors, warnings } = await refusals('', `  timeouts:\n    stdout_drain_seconds: 1\n${keys.map((k) => `    ${k}: 1\n`).join('')}`);
    expect(errors).toEqual([]);
    expect(warnings).toHaveLength(keys.length);
    for (const key of keys) expect(warnings.some((m) => m.startsWith(`\`runtime.timeouts.${key}\``) && m.endsWith('is ignored: nothing in a run here uses it'))).toBe(true);
  });
});
