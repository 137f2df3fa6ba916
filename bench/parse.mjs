// Claude stream parsing: StreamEvents per second over a large generated stream-json file (the shapes Claude Code
// 2.1.330 writes: assistant text, tool_use and tool_result lines, a result), as a ratio to bare JSON.parse of the
// same lines, both measured in this run. Goal: ratio ≥ 0.95.
import { ClaudeStream } from '../dist/adapters/claude/outcome.js';

const LINES = 200_000;
const ROUNDS = 5;

function generate() {
  const session = '86dc20ca-3ec6-40d6-a76d-545bab9f188f';
  const lines = [];
  for (let i = 0; i < LINES; i++) {
    const kind = i % 3;
    if (kind === 0)
      lines.push(
        JSON.stringify({
          type: 'assistant',
          message: {
            id: `msg_${i}`,
            type: 'message',
            role: 'assistant',
            model: 'claude-test',
            content: [{ type: 'text', text: `Step ${i}: reading the code and planning the change.` }],
            stop_reason: null,
            usage: { input_tokens: 2500, output_tokens: 1 },
          },
          parent_tool_use_id: null,
          session_id: session,
          uuid: `u${i}`,
        }),
      );
    else if (kind === 1)
      lines.push(
        JSON.stringify({
          type: 'assistant',
          message: {
            id: `msg_${i}`,
            type: 'message',
            role: 'assistant',
            model: 'claude-test',
            content: [{ type: 'tool_use', id: `toolu_${i}`, name: 'Bash', input: { command: `grep -rn "pattern${i}" src`, description: 'Search' } }],
            stop_reason: null,
          },
          parent_tool_use_id: null,
          session_id: session,
          uuid: `u${i}`,
        }),
      );
    else
      lines.push(
        JSON.stringify({
          type: 'user',
          message: {
            role: 'user',
            content: [{ tool_use_id: `toolu_${i - 1}`, type: 'tool_result', content: `src/a.ts:${i}: const x = ${i};\nsrc/b.ts:${i}: return x;`, is_error: false }],
          },
          parent_tool_use_id: null,
          session_id: session,
          uuid: `u${i}`,
          tool_use_result: { stdout: 'x', stderr: '' },
        }),
      );
  }
  lines.push(
    JSON.stringify({
      type: 'result',
      subtype: 'success',
      is_error: false,
      result: 'Done.',
      session_id: session,
      total_cost_usd: 1.5,
      usage: { input_tokens: 1000, output_tokens: 100, cache_read_input_tokens: 10, cache_creation_input_tokens: 5 },
    }),
  );
  return lines;
}

function timed(fn) {
  const start = process.hrtime.bigint();
  const count = fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, count };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Runs the benchmark and returns its report lines. */
export async function bench() {
  const lines = generate();
  const bytes = lines.reduce((sum, l) => sum + l.length + 1, 0);
  const bare = [];
  const parsed = [];
  let events = 0;
  for (let round = 0; round < ROUNDS; round++) {
    bare.push(timed(() => lines.reduce((n, l) => n + (JSON.parse(l) ? 1 : 0), 0)).ms);
    const run = timed(() => {
      const stream = new ClaudeStream();
      let n = 0;
      for (const line of lines) n += stream.line(line).length;
      return n;
    });
    parsed.push(run.ms);
    events = run.count;
  }
  const b = median(bare);
  const p = median(parsed);
  return [
    `parse: ${lines.length} Claude stream-json lines (${(bytes / 1024 / 1024).toFixed(1)} MiB), median of ${ROUNDS}`,
    `  bare JSON.parse: ${b.toFixed(0)} ms   parseClaude → StreamEvents: ${p.toFixed(0)} ms (${events} events, ${Math.round(events / (p / 1000))} events/s)`,
    `  ratio ${(b / p).toFixed(2)} of bare JSON.parse throughput (goal ≥ 0.95)`,
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await bench()) console.log(line);
