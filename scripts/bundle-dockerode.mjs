// Bundles dockerode into dist/bundle/dockerode.cjs, which the CLI's bundle loads when a Docker sandbox is used, so
// an install of Wave pulls none of dockerode's dependencies: ssh2 and cpu-features (native builds) and protobufjs
// carry install scripts that npm lists on every install of a package depending on them.
import { build } from 'esbuild';

export const DOCKERODE_BUNDLE = 'dist/bundle/dockerode.cjs';

// What dockerode reaches only for what Wave never asks of it: an ssh:// daemon (ssh2; Wave takes unix:// and tcp://)
// and BuildKit builds with sessions (gRPC, protobuf; Wave imports its image and never builds with BuildKit).
const NOT_SHIPPED = ['ssh2', '@grpc/grpc-js', '@grpc/proto-loader', 'protobufjs'];

/** Stands in for a package left out of the bundle: loading it works, using any part of it throws saying why. */
export const notShipped = {
  name: 'not-shipped',
  setup(build) {
    const filter = new RegExp(`^(${NOT_SHIPPED.map((name) => name.replace(/[/@.-]/g, '\\$&')).join('|')})$`);
    build.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'not-shipped' }));
    build.onLoad({ filter: /.*/, namespace: 'not-shipped' }, (args) => ({
      contents: `const message = ${JSON.stringify(`${args.path} is not part of Wave's Docker client: Wave reaches Docker through a unix:// socket or tcp://, without ssh or BuildKit sessions`)};
function unavailable() { throw new Error(message); }
module.exports = new Proxy({}, { get: () => unavailable });`,
      loader: 'js',
    }));
  },
};

/** Writes the dockerode bundle next to the CLI's. */
export async function bundleDockerode() {
  await build({
    stdin: { contents: "module.exports = require('dockerode');", resolveDir: process.cwd(), sourcefile: 'dockerode-entry.cjs' },
    outfile: DOCKERODE_BUNDLE,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
    plugins: [notShipped],
  });
}
