import { painter, shouldColor } from '../color.js';
import type { RunSink, SinkOptions } from '../sink-types.js';
import { formatSummary } from '../summary.js';
import { safeValues } from '../safe-values.js';
import { renderFrame, type Screen } from './terminal-frame.js';
import { childTreeOf, runTree, type RunTree } from './run-tree.js';
import { applyEvent } from './terminal-view.js';

export interface TerminalSinkOptions extends SinkOptions {
  /** The clock elapsed times tick against (tests pass a fake one). */
  now?: () => number;
  /** Time between redraws; 100 ms keeps it at ten frames a second at most. */
  frameMs?: number;
}

/** The live view on a TTY: one line per step, its child runs' steps under it, redrawn in place at most every frameMs. */
export function createTerminalSink(options: TerminalSinkOptions): RunSink {
  const now = options.now ?? Date.now;
  const color = options.color ?? shouldColor(options.out);
  const paint = painter(color);
  const root = runTree(options.stepIds);
  // The runs this view shows: its own (the first it hears of) and the child runs their steps start.
  const trees = new Map<string, RunTree>();
  let timer: NodeJS.Timeout | undefined;
  let drawnLines = 0;
  let lastFrame = '';
  let closed = false;
  let held = false;

  const draw = (): void => {
    if (held) return;
    const lines = renderFrame(root, now(), paint, screenOf(options.out));
    const frame = lines.join('\n');
    if (frame === lastFrame) return;
    // Back to the frame's first line, then overwrite each line in place.
    const up = drawnLines > 0 ? `\r\x1b[${drawnLines}A` : '';
    // A shorter frame (finished items folded away) clears what is left of the one before.
    const rest = lines.length < drawnLines ? '\x1b[J' : '';
    options.out.write(`${up}${lines.map((line) => `\x1b[2K${line}\n`).join('')}${rest}`);
    drawnLines = lines.length;
    lastFrame = frame;
  };

  return {
    handle(event) {
      if (closed) return;
      if (trees.size === 0) trees.set(event.runId, root);
      const tree = trees.get(event.runId);
      if (!tree) return;
      const safe = safeValues(event);
      applyEvent(safe, tree, root);
      if (safe.type === 'child_run_started') trees.set(safe.childRunId, childTreeOf(tree, safe));
      timer ??= setInterval(draw, options.frameMs ?? 100).unref();
    },
    summarize(record, runDir) {
      options.out.write(`\n${formatSummary(record, runDir, { color, cwd: options.cwd })}`);
    },
    hold(hold) {
      if (hold) {
        draw();
        // What is written below the frame now stays: the next frame starts under it instead of drawing over it.
        drawnLines = 0;
        lastFrame = '';
      }
      held = hold;
    },
    close() {
      if (closed) return;
      closed = true;
      if (timer) clearInterval(timer);
      draw();
    },
  };
}

function screenOf(out: SinkOptions['out']): Screen {
  const { columns, rows } = out as NodeJS.WriteStream;
  const known = (n: unknown) => (typeof n === 'number' && n > 0 ? n : undefined);
  return { columns: known(columns), rows: known(rows) };
}
