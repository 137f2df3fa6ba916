import { join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { FAIL_TARGET } from '../config/schema/gate-schema.js';
import type { EventBus, GateChoiceEntry, RunEvent } from '../events.js';
import { oneLine } from '../report/describe.js';
import { writeGateAnswer, type GateAnswer } from '../state/gate-answer.js';

type GateWaiting = Extract<RunEvent, { type: 'gate_waiting' }>;

/** Where the prompt reads and writes: a terminal's stdin and stderr. */
export interface GatePromptOptions {
  bus: EventBus;
  /** The runs' folder: a child run's gate is answered in the child's own folder. */
  runsRoot: string;
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** Stops (true) and restarts (false) the live view while the person answers, so it does not draw over the prompt. */
  hold?: (held: boolean) => void;
}

/** The terminal a person answers on: stdin and stderr when both are one; undefined otherwise (the run waits for `wave approve`). */
export function terminalIo(): Pick<GatePromptOptions, 'input' | 'output'> | undefined {
  return process.stdin.isTTY && process.stderr.isTTY ? { input: process.stdin, output: process.stderr } : undefined;
}

/**
 * On a terminal, an approval gate of the run (or of one of its children) that waits for a person asks for the answer
 * there, as Wave's CLI does; the answer is left in the run folder like `wave approve`'s, so an answer from another
 * shell (or the gate's timeout) settles it too and the question is withdrawn. Returns what stops listening.
 */
export function promptAtGates(options: GatePromptOptions): () => void {
  const resolved = new Set<string>();
  let asking: { key: string; stop: AbortController } | undefined;
  const queue: GateWaiting[] = [];
  const next = (): void => {
    const gate = queue.shift();
    if (!gate || asking) return;
    const key = `${gate.runId}/${gate.stepId}`;
    if (resolved.has(key)) return next();
    asking = { key, stop: new AbortController() };
    options.hold?.(true);
    void ask(gate, options, asking.stop.signal)
      .then((answer) => answer && writeGateAnswer(join(options.runsRoot, gate.runId), gate.stepId, answer))
      .finally(() => {
        asking = undefined;
        options.hold?.(false);
        next();
      });
  };
  const unsubscribe = options.bus.subscribe((event) => {
    if (event.type === 'gate_waiting' && event.gate === 'approval') {
      resolved.delete(`${event.runId}/${event.stepId}`);
      queue.push(event);
      // `auto` and --auto-approve resolve the gate in the same turn: only a gate still open then is asked.
      setImmediate(next);
    } else if (event.type === 'gate_resolved') {
      const key = `${event.runId}/${event.stepId}`;
      resolved.add(key);
      if (asking?.key === key) asking.stop.abort();
    }
  });
  return () => {
    unsubscribe();
    asking?.stop.abort();
  };
}

/** Asks for one gate's answer until a valid one is given; undefined when the question is withdrawn. */
async function ask(gate: GateWaiting, options: GatePromptOptions, signal: AbortSignal): Promise<GateAnswer | undefined> {
  const lines = createInterface({ input: options.input, output: options.output, terminal: true });
  // readline takes Ctrl-C from the terminal: it still stops the run.
  lines.on('SIGINT', () => process.kill(process.pid, 'SIGINT'));
  const question = (text: string) => lines.question(text, { signal }).catch(() => undefined);
  try {
    options.output.write(`\nGate ${gate.stepId}${gate.message ? `: ${oneLine(gate.message)}` : ''}\n`);
    const choices = gate.choices ?? [];
    for (const choice of choices) options.output.write(`  [${oneLine(choice.key)}] ${choiceText(choice, gate.defaultChoice)}\n`);
    const picked = choices.length ? await pickChoice(choices, gate.defaultChoice, question, options.output) : await approveOrReject(question);
    if (!picked) return undefined;
    const text = gate.freeform ? await question('Text (Enter for none): ') : '';
    if (text === undefined) return undefined;
    return { ...picked, ...(text ? { text } : {}), at: new Date().toISOString() };
  } finally {
    lines.close();
  }
}

function choiceText(choice: GateChoiceEntry, defaultChoice: string | undefined): string {
  const where = choice.target === FAIL_TARGET ? ' (abort)' : choice.target ? ` → ${oneLine(choice.target)}` : '';
  return `${oneLine(choice.label)}${where}${choice.key === defaultChoice ? ' (default)' : ''}`;
}

async function pickChoice(
  choices: readonly GateChoiceEntry[],
  defaultChoice: string | undefined,
  question: (text: string) => Promise<string | undefined>,
  output: NodeJS.WritableStream,
): Promise<Pick<GateAnswer, 'key'> | undefined> {
  for (;;) {
    const typed = await question(`Choice${defaultChoice !== undefined ? ` [${oneLine(defaultChoice)}]` : ''}: `);
    if (typed === undefined) return undefined;
    const key = typed.trim() || defaultChoice;
    if (key !== undefined && choices.some((c) => c.key === key)) return { key };
    output.write(`Type one of: ${choices.map((c) => oneLine(c.key)).join(', ')}\n`);
  }
}

async function approveOrReject(question: (text: string) => Promise<string | undefined>): Promise<Pick<GateAnswer, 'reject'> | undefined> {
  for (;;) {
    const typed = await question('Approve? [y/n]: ');
    if (typed === undefined) return undefined;
    if (/^y(es)?$/i.test(typed.trim())) return {};
    if (/^no?$/i.test(typed.trim())) return { reject: true };
  }
}
