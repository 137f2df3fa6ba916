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
