import { shouldColor } from './color.js';
import type { RunSink, SinkOptions } from './sink-types.js';
import { failureCause, formatStatusLine } from './summary.js';

/** `--output quiet`: nothing while the run goes, then the summary's one status line, and for a run that failed its cause in one more. */
export function createQuietSink(options: Pick<SinkOptions, 'out' | 'color'>): RunSink {
  const color = options.color ?? shouldColor(options.out);
  return {
    handle() {},
    summarize(record) {
      const cause = failureCause(record);
      options.out.write(`${formatStatusLine(record, { color })}\n${cause ? `  ${cause}\n` : ''}`);
    },
    close() {},
  };
}
