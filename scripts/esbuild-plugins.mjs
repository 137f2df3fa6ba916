// esbuild plugins shared by the CLI bundle (bundle.mjs) and the GitHub Action's bundle (bundle-action.mjs).

// zod re-exports all of its 60-odd message locales; Wave speaks English only, so the bundle keeps that one.
export const englishOnlyZod = {
  name: 'english-only-zod',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes('node_modules/zod/') ? { path: 'zod-locales', namespace: 'english-only-zod' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'english-only-zod' }, () => ({
      contents: "export { default as en } from 'zod/v4/locales/en.js';",
      resolveDir: process.cwd(),
    }));
  },
};

// The OTLP exporter loads node:http(s) with import(); its bundles (otlp.cjs, the Action's) require them instead, so it
// never depends on the loader of the code holding it (the CLI's bundles run as scripts compiled from a code cache, where
// import() has none).
export const requiredOtlpTransport = {
  name: 'required-otlp-transport',
  setup(build) {
    build.onLoad({ filter: /@opentelemetry[\\/]otlp-exporter-base[\\/].*\.js$/ }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const text = await readFile(args.path, 'utf8');
      return { contents: text.replace(/\bimport\('(https?)'\)/g, "Promise.resolve(require('$1'))"), loader: 'js' };
    });
  },
};
