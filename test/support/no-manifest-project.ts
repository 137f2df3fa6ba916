import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { ROOT } from './cli.js';

/** A project folder of the given files under the system temp folder, refused unless no wave.yaml sits in it or above it. */
export function projectWithoutManifest(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'wave-no-manifest-'));
  if (!relative(ROOT, dir).startsWith('..')) throw new Error(`${dir} lies inside the repository; set TMPDIR outside it`);
  for (let up = dir; ; up = dirname(up)) {
    if (existsSync(join(up, 'wave.yaml'))) throw new Error(`${join(up, 'wave.yaml')} exists above the temp folder; these tests need none`);
    if (dirname(up) === up) break;
  }
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

/** Commands only: `make` writes a JSON artifact checked by a contract, `use` depends on it and reads it injected. */
export const COMMANDS_PIPELINE = `kind: WavePipeline
metadata: { name: commands }
steps:
  - id: make
    exec:
      type: command
      source: "mkdir -p out && printf '{\\"greeting\\": \\"hello\\"}' > out/greeting.json"
    output_artifacts:
      - { name: greeting, path: out/greeting.json }
    handover:
      contract:
        type: json_schema
        schema: { type: object, required: [greeting] }
  - id: use
    dependencies: [make]
    memory:
      inject_artifacts:
        - { step: make, artifact: greeting, as: greeting }
    exec:
      type: command
      source: "cat .wave/artifacts/greeting && echo ' read by use'"
`;
