import type { RunSink, SinkOptions } from './sink-types.js';

/** `--json`: every event as one NDJSON line, exactly the RunEvent object (it carries `v`); no summary. */
export function createJsonSink(options: Pick<SinkOptions, 'out'>): RunSink {
  return {
    handle(event) {
      options.out.write(`${JSON.stringify(event)}\n`);
    },
    // The summary is in the stream already (run_finished); anything else would break the NDJSON.
    summarize() {},
    close() {},
  };
}
