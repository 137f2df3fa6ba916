import { describe, expect, it } from 'vitest';
import { eventSchemas } from '../../src/event-schema.js';
import { createJsonSink } from '../../src/report/json.js';
import { createQuietSink } from '../../src/report/quiet.js';
import { CollectingStream, RUN_ID, SCRIPTED_EVENTS, scriptedRecord } from './scripted-run.js';

const { RunEventSchema } = eventSchemas();

describe('json sink', () => {
  it('writes every event as one NDJSON line, exactly the event, and nothing else', () => {
    const out = new CollectingStream();
    const sink = createJsonSink({ out });
    for (const event of SCRIPTED_EVENTS) sink.handle(event);
    sink.summarize(scriptedRecord(), '/runs/x');
    sink.close();
    expect(out.text).toBe(SCRIPTED_EVENTS.map((e) => `${JSON.stringify(e)}\n`).join(''));
    const lines = out.text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toEqual(SCRIPTED_EVENTS);
    for (const line of lines) {
      expect(line.v).toBe(1);
      expect(RunEventSchema.safeParse(line).success).toBe(true);
    }
  });
});

describe('quiet sink', () => {
  it('prints nothing during the run, then the one status line and, for a failed run, its cause in one more', () => {
    const out = new CollectingStream();
    const sink = createQuietSink({ out });
    for (const event of SCRIPTED_EVENTS) sink.handle(event);
    expect(out.text).toBe('');
    sink.summarize(scriptedRecord(), '/runs/x');
    sink.close();
    expect(out.text).toBe(`✗ run ${RUN_ID} failed in 7.1s · 12.3k in / 678 out · $0.0123\n  count-b: non_zero_exit: exit code 2\n`);
  });
});
