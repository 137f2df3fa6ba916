// Bundles the OTLP trace exporter (OpenTelemetry's, with its transport) into dist/bundle/otlp.cjs, which the CLI's and
// the API's bundles load with the first batch of spans they send: a run that exports no trace never reads it.
import { build } from 'esbuild';
import { requiredOtlpTransport } from './esbuild-plugins.mjs';

/** Writes the exporter's bundle next to the CLI's. */
export async function bundleOtlp() {
  await build({
    stdin: { contents: "export { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';", resolveDir: process.cwd(), sourcefile: 'otlp-entry.js' },
    outfile: 'dist/bundle/otlp.cjs',
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
    plugins: [requiredOtlpTransport],
  });
}
