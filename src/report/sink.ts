import type { RunEvent } from '../events.js';
import { redactValues, type TextRedactor } from '../state/redact-values.js';
import { createJsonSink } from './json.js';
import { createQuietSink } from './quiet.js';
import { createTextSink } from './text.js';
import type { Output, RunSink, SinkOptions } from './sink-types.js';

export const OUTPUT_MODES = ['auto', 'text', 'quiet', 'json'] as const;
export type OutputMode = (typeof OUTPUT_MODES)[number];

export interface CreateSinkOptions extends SinkOptions {
  /** Hides secrets in every printed event and in the summary. */
  redactor?: TextRedactor;
}

/** The sink for `--output <mode>`: auto is the live view on a TTY and plain text elsewhere. */
export async function createSink(mode: OutputMode, options: CreateSinkOptions): Promise<RunSink> {
  const sink = stopsWhenClosed(await pick(mode, options), options.out);
  const { redactor } = options;
  if (!redactor) return sink;
  // The summary prints the record's texts (step results, outputs): hidden like the events.
  return {
    ...sink,
    handle: (event: RunEvent) => sink.handle(redactValues(event, redactor)),
    summarize: (record, runDir) => sink.summarize(redactValues(record, redactor), runDir),
    ...(sink.hold ? { hold: (held: boolean) => sink.hold!(held) } : {}),
  };
}

const absorbing = new WeakSet<Output>();

/**
 * A sink whose output may be closed under it (`--json | head -1`): the stream's write errors (EPIPE) are
 * absorbed instead of crashing the process, and the sink stops printing once the stream is no longer writable.
 */
function stopsWhenClosed(sink: RunSink, out: Output): RunSink {
  if (!absorbing.has(out)) {
    absorbing.add(out);
    out.on('error', () => undefined);
  }
  const open = () => out.writable !== false;
  return {
    handle: (event) => void (open() && sink.handle(event)),
    summarize: (record, runDir) => void (open() && sink.summarize(record, runDir)),
    close: () => sink.close(),
    ...(sink.hold ? { hold: (held: boolean) => sink.hold!(held) } : {}),
  };
}

async function pick(mode: OutputMode, options: SinkOptions): Promise<RunSink> {
  switch (mode) {
    case 'json':
      return createJsonSink(options);
    case 'quiet':
      return createQuietSink(options);
    case 'text':
      return createTextSink(options);
    case 'auto':
      // The live view (and the text measuring it needs) loads only for a terminal.
      return isLiveTerminal(options.out) ? (await import('./terminal/terminal.js')).createTerminalSink(options) : createTextSink(options);
  }
}

function isLiveTerminal(out: SinkOptions['out']): boolean {
  return (out as NodeJS.WriteStream).isTTY === true && process.env.TERM !== 'dumb';
}
