import { painter, shouldColor } from '../color.js';
import type { RunSink, SinkOptions } from '../sink-types.js';
import { formatSummary } from '../summary.js';
import { safeValues } from '../safe-values.js';
import { renderFrame } from './terminal-frame.js';
import { applyEvent, pendingView, type RunView, type StepView } from './terminal-view.js';

export interface TerminalSinkOptions extends SinkOptions {
  /** The clock elapsed times tick against (tests pass a fake one). */
  now?: () => number;
  /** Time between redraws; 100 ms keeps it at ten frames a second at most. */
  frameMs?: number;
}

/** The live view on a TTY: one line per step, redrawn in place at most every frameMs. */
export function createTerminalSink(options: TerminalSinkOptions): RunSink {
  const now = options.now ?? Date.now;
  const color = options.color ?? shouldColor(options.out);
  const paint = painter(color);
  const order = [...options.stepIds];
  const steps = new Map<string, StepView>(order.map((id) => [id, pendingView()]));
  const run: RunView = {};
  let timer: NodeJS.Timeout | undefined;
  let drawnLines = 0;
  let lastFrame = '';
  let closed = false;

  const view = (id: string): StepView => {
    let step = steps.get(id);
    if (!step) {
      step = pendingView();
      steps.set(id, step);
      order.push(id);
    }
    return step;
  };

  const draw = (): void => {
    const lines = renderFrame({ order, steps, run }, now(), paint, columnsOf(options.out));
    const frame = lines.join('\n');
    if (frame === lastFrame) return;
    // Back to the frame's first line, then overwrite each line in place.
    const up = drawnLines > 0 ? `\r\x1b[${drawnLines}A` : '';
    options.out.write(`${up}${lines.map((line) => `\x1b[2K${line}\n`).join('')}`);
    drawnLines = lines.length;
    lastFrame = frame;
  };

  return {
    handle(event) {
      if (closed) return;
      applyEvent(safeValues(event), view, run);
      timer ??= setInterval(draw, options.frameMs ?? 100).unref();
    },
    summarize(record, runDir) {
      options.out.write(`\n${formatSummary(record, runDir, { color, cwd: options.cwd })}`);
    },
    close() {
      if (closed) return;
      closed = true;
      if (timer) clearInterval(timer);
      draw();
    },
  };
}

function columnsOf(out: SinkOptions['out']): number | undefined {
  const columns = (out as NodeJS.WriteStream).columns;
  return typeof columns === 'number' && columns > 0 ? columns : undefined;
}
