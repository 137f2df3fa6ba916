import { shouldColor } from './color.js';
import type { RunSink, SinkOptions } from './sink-types.js';
import { formatStatusLine } from './summary.js';

/** `--output quiet`: nothing while the run goes, then the summary's one status line. */
export function createQuietSink(options: Pick<SinkOptions, 'out' | 'color'>): RunSink {
  const color = options.color ?? shouldColor(options.out);
  return {
    handle() {},
    summarize(record) {
      options.out.write(`${formatStatusLine(record, { color })}\n`);
    },
    close() {},
  };
}
