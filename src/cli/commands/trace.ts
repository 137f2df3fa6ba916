import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { loadManifest } from '../../config/load/load.js';
import { manifestFileOf } from '../../config/load/paths.js';
import { WaveError } from '../../core/errors/errors.js';
import { ioError } from '../../io-error.js';
import { resolveRunId } from '../../state/run-store.js';
import { findRunsRoot } from '../../state/runs-root.js';
import { traceSettingsOf } from '../../trace/gen-ai-attributes.js';
import { TRACE_FILE, TRACE_FLUSH_TIMEOUT_MS } from '../../trace/live-trace.js';
import { otlpDestinationOf, shownUrl, type OtlpDestination } from '../../trace/otlp-destination.js';
import { otlpTraceLines } from '../../trace/otlp-json.js';
import { recordedTraceParent } from '../../trace/recorded-trace-parent.js';
import { runTreeEvents } from '../../trace/run-tree-events.js';
import { sendTrace } from '../../trace/send-trace.js';
import { traceOfEvents } from '../../trace/trace-of-events.js';

interface TraceOptions {
  manifest?: string;
  endpoint?: string;
  output?: string;
}

/** `wave trace <run>`: a recorded run's trace (its child runs' included), sent to an OTLP/HTTP collector or written as OTLP JSON. */
export function registerTrace(program: Command): void {
  program
    .command('trace')
    .description("Export a recorded run's OpenTelemetry trace (its child runs' included): to an OTLP/HTTP collector, or as OTLP JSON.")
    .argument('<run>', 'a run id, or a unique prefix of one')
    .option('-m, --manifest <file>', 'the manifest the run belongs to (default: the nearest wave.yaml, else this folder)')
    .option('--endpoint <url>', 'the OTLP/HTTP endpoint to send it to (`/v1/traces` is added); default OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT')
    .option('-o, --output <file>', 'write it as OTLP JSON, one export request a line (`-`: standard output)')
    .action(async (runArgument: string, options: TraceOptions) => {
      const destination = destinationOf(options);
      if (!destination && options.output === undefined) {
        throw new WaveError('invalid_argument', 'wave trace needs somewhere to put the trace', {
          hint: 'Give --endpoint http://localhost:4318 (an OTLP/HTTP collector), -o trace.jsonl, or set OTEL_EXPORTER_OTLP_ENDPOINT.',
        });
      }
      const runsRoot = findRunsRoot(process.cwd(), options.manifest);
      const runId = resolveRunId(runsRoot, runArgument);
      const parent = recordedTraceParent(join(runsRoot, runId, TRACE_FILE), runId);
      // Content as the live run kept it: the variable, or the manifest's runtime.telemetry.capture_content.
      const manifestFile = manifestFileOf(process.cwd(), options.manifest);
      const capture = manifestFile ? (await loadManifest(manifestFile)).value.runtime?.telemetry?.capture_content : undefined;
      const spans = traceOfEvents(runTreeEvents(runsRoot, runId), { ...traceSettingsOf(process.env, capture), ...(parent ? { parent } : {}) });
      if (options.output !== undefined) writeTrace(options.output, otlpTraceLines(spans));
      if (destination) {
        await sendTrace(spans, destination, TRACE_FLUSH_TIMEOUT_MS);
        process.stderr.write(`sent ${spans.length} spans of ${runId} to ${shownUrl(destination.url)}\n`);
      }
    });
}

/** --endpoint (its headers from OTEL_EXPORTER_OTLP_HEADERS), else the OpenTelemetry variables; an endpoint that is no http(s) URL is refused. */
function destinationOf(options: TraceOptions): OtlpDestination | undefined {
  if (options.endpoint === undefined) return otlpDestinationOf(process.env, undefined);
  let protocol: string;
  try {
    protocol = new URL(options.endpoint).protocol;
  } catch {
    protocol = '';
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new WaveError('invalid_argument', `--endpoint \`${options.endpoint}\` is not an http or https URL`, {
      hint: "Give the collector's OTLP/HTTP endpoint, e.g. --endpoint http://localhost:4318.",
    });
  }
  // The flag wins over the endpoint variables; the header variables still apply.
  const env = { ...process.env };
  delete env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  return otlpDestinationOf(env, { endpoint: options.endpoint });
}

function writeTrace(output: string, text: string): void {
  if (output === '-') {
    process.stdout.write(text);
    return;
  }
  try {
    writeFileSync(output, text);
  } catch (cause) {
    throw ioError('write', output, cause);
  }
}
