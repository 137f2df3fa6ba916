// `npm run bench`: runs every benchmark below in turn and prints its report. Add a module here to
// include it; each exports `bench(): Promise<string[]>` and can also run on its own.
const MODULES = [
  './startup.mjs',
  './overhead.mjs',
  './fan-out.mjs',
  './scaling.mjs',
  './memory.mjs',
  './parse.mjs',
  './agent-overhead.mjs',
  './replay.mjs',
  './trace.mjs',
  './sandbox.mjs',
  './attack.mjs',
  './attack-git.mjs',
  './attack-views.mjs',
  './attack-names.mjs',
  './attack-limits.mjs',
  './attack-flood.mjs',
];

let failed = false;
for (const path of MODULES) {
  try {
    const { bench } = await import(path);
    for (const line of await bench()) console.log(line);
  } catch (error) {
    failed = true;
    console.log(`${path}: failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  console.log('');
}
process.exitCode = failed ? 1 : 0;
