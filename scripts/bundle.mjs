// Bundles the compiled CLI (dist/) into one CommonJS file, dist/bundle/wave.cjs, and warms its V8 code
// cache: a cold `wave` then reads two files and skips compiling what the warm-up already compiled.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';
import { bundleDockerode } from './bundle-dockerode.mjs';
import { englishOnlyZod } from './esbuild-plugins.mjs';
import { bundleOtlp } from './bundle-otlp.mjs';

const OUT = 'dist/bundle/wave.cjs';
/** The verbs with a bundle of their own (bin/wave.cjs loads `verb-<verb>.cjs` when it exists). */
const SOLO_VERBS = ['validate', 'status', 'runs', 'logs', 'thread', 'list'];

// dockerode and the OTLP exporter are bundles of their own (bundle-dockerode.mjs, bundle-otlp.mjs), loaded only when a
// sandbox command or a trace export imports them.
const BESIDE_BUNDLE = { dockerode: './dockerode.cjs', '@opentelemetry/exporter-trace-otlp-http': './otlp.cjs' };
const besideBundle = {
  name: 'beside-bundle',
  setup(build) {
    build.onResolve({ filter: /^(dockerode|@opentelemetry\/exporter-trace-otlp-http)$/ }, (args) => ({ path: BESIDE_BUNDLE[args.path], external: true }));
  },
};

// A stale cache must never meet a new bundle: V8 only checks the source's length.
rmSync('dist/bundle', { recursive: true, force: true });
/** What the CLI's bundle and the API's share. */
const BUNDLED = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  plugins: [englishOnlyZod, besideBundle],
  // The price table (~1 MB) loads from node_modules, only when a cost must come from it; the browser driver only for a browser step.
  external: ['@pydantic/genai-prices', 'playwright-core'],
};
/** What every CLI bundle (the whole CLI's, and each solo verb's) shares. */
const CLI_BUNDLE = {
  ...BUNDLED,
  format: 'cjs',
  // CommonJS has no import.meta: the bundle's own URL stands in for it.
  define: { 'import.meta.url': '__waveBundleUrl' },
  banner: { js: "const __waveBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
};
await build({ ...CLI_BUNDLE, entryPoints: ['dist/cli/main.js'], outfile: OUT });
/** Every CLI bundle: each gets its code cache from the warm-up below. */
const CLI_BUNDLES = [OUT];
/** Bundles a CLI entry written here (text importing from dist/) as dist/bundle/<name>.cjs. */
async function bundleEntry(name, contents) {
  const outfile = `dist/bundle/${name}.cjs`;
  await build({ ...CLI_BUNDLE, stdin: { contents, resolveDir: process.cwd(), sourcefile: `${name}-entry.js` }, outfile });
  CLI_BUNDLES.push(outfile);
}
// The everyday verbs that read a project or a run also get a bundle each, holding that verb alone: bin/wave.cjs loads
// it when the command line names the verb, so `wave status` reads and compiles a third of what `wave run` does.
for (const verb of SOLO_VERBS) {
  const register = `register${verb[0].toUpperCase()}${verb.slice(1)}`;
  await bundleEntry(
    `verb-${verb}`,
    `import { startCli } from './dist/cli/start.js';\nimport { ${register} } from './dist/cli/commands/${verb}.js';\nstartCli({ verbs: { ${verb}: async () => ${register} } });\n`,
  );
}
// Completion (`wave completion`, and `wave complete` at each Tab) and a command line naming no verb (`wave --help`,
// `wave -v`) get a bundle of their own too, holding no command: the commands' names, arguments and options are
// written into it, taken here from the whole CLI's program.
const { buildProgram } = await import(resolve('dist/cli/program.js'));
const { COMMANDS } = await import(resolve('dist/cli/commands/index.js'));
const { commandTree } = await import(resolve('dist/cli/completion/command-tree.js'));
const tree = commandTree(await buildProgram([], { verbs: COMMANDS.verbs }));
await bundleEntry(
  'described',
  `import { startCli } from './dist/cli/start.js';\nimport { completionOfTree } from './dist/cli/commands/completion.js';\nstartCli({ verbs: {}, describingAll: async () => completionOfTree(${JSON.stringify(tree)}) });\n`,
);
await bundleDockerode();
await bundleOtlp();

// The public API (src/api, package.json `exports`): for each entry, one ESM file beside the CLI's (sharing its dockerode
// bundle) and one declaration file. CommonJS dependencies inside it `require` Node's modules: ESM has no require.
const API_ENTRIES = { index: 'api', adapter: 'adapter' };
for (const [entry, out] of Object.entries(API_ENTRIES)) {
  await build({
    ...BUNDLED,
    entryPoints: [`dist/api/${entry}.js`],
    outfile: `dist/bundle/${out}.js`,
    format: 'esm',
    banner: { js: "import { createRequire as __waveCreateRequire } from 'node:module'; const require = __waveCreateRequire(import.meta.url);" },
  });
  // tsconfig.api.json's declarations as one file that names nothing but Node's modules: a consumer checks it without
  // skipLibCheck, and a type naming a bundled package (zod, yaml) fails the build instead of turning into `any` there.
  const types = await rollup({
    input: `dist/types/api/${entry}.d.ts`,
    plugins: [dts()],
    external: (id) => id.startsWith('node:'),
    onwarn: (warning) => {
      throw new Error(`the declarations of src/api/${entry}.ts: ${warning.message}`);
    },
  });
  await types.write({ file: `dist/bundle/${out}.d.ts`, format: 'es' });
}

// bin/wave.cjs writes the cache when a run finds none. The warm-up runs a two-step pipeline with a contract,
// so loading, planning and executing are all compiled into it. The cache is this checkout's (it records the
// bundle's path): the package leaves it out (package.json `files`), and an install's first run writes its own.
const project = mkdtempSync(join(tmpdir(), 'wave-warm-up-'));
try {
  mkdirSync(join(project, 'pipelines'));
  writeFileSync(join(project, 'wave.yaml'), 'kind: WaveManifest\nmetadata: { name: warm-up }\n');
  writeFileSync(
    join(project, 'pipelines', 'warm-up.yaml'),
    [
      'kind: WavePipeline',
      'metadata: { name: warm-up }',
      'steps:',
      '  - id: answer',
      '    exec: { type: command, source: "echo \'{\\"ok\\": true}\'" }',
      '    handover: { contract: { type: json_schema, schema: { type: object, required: [ok] } } }',
      '  - { id: echo, dependencies: [answer], exec: { type: command, source: "echo {{ steps.answer.output }}" } }',
      '',
    ].join('\n'),
  );
  const wave = (...args) => {
    const warmUp = spawnSync(process.execPath, [resolve('bin/wave.cjs'), ...args], { cwd: project, encoding: 'utf8' });
    if (warmUp.status !== 0) throw new Error(`the warm-up's \`wave ${args.join(' ')}\` failed (exit ${warmUp.status}): ${warmUp.stdout}${warmUp.stderr}`);
  };
  wave('run', 'warm-up', '--output', 'quiet');
  // Each solo verb warms its own bundle's cache on the run just made.
  const [runId] = readdirSync(join(project, '.wave', 'runs'));
  for (const verb of SOLO_VERBS) wave(verb, ...(['status', 'logs', 'thread'].includes(verb) ? [runId] : []));
  wave('complete', '--', 'status', runId.slice(0, 3));
  wave('--help');
} finally {
  rmSync(project, { recursive: true, force: true });
}
for (const bundle of CLI_BUNDLES) {
  if (!existsSync(`${bundle}.cache`)) throw new Error(`the warm-up wrote no ${bundle}.cache`);
}
