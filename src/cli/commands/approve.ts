import type { Command } from 'commander';
import { WaveError } from '../../core/errors/errors.js';
import { liveLockOwner } from '../../state/run-lock.js';
import type { GateRecord } from '../../state/record/run-record.js';
import { writeGateAnswer, type GateAnswer } from '../../state/gate-answer.js';
import { RunStore } from '../../state/run-store.js';
import { findRunsRoot } from '../../state/runs-root.js';

interface AnswerFlags {
  manifest?: string;
  choice?: string;
  text?: string;
}

/** `wave approve <run> <step>`: resolves a waiting approval gate with a choice (default: the gate's default). */
export function registerApprove(program: Command): void {
  answerCommand(program, 'approve', "Approve a waiting gate of a run: the run goes on with the choice (default: the gate's default).").option(
    '--choice <key>',
    'the key of the choice to take',
  );
}

/** `wave reject <run> <step>`: resolves a waiting approval gate with its `_fail` choice, failing the run. */
export function registerReject(program: Command): void {
  answerCommand(program, 'reject', 'Reject a waiting gate of a run: the gate fails, and the run with it.');
}

function answerCommand(program: Command, verb: 'approve' | 'reject', description: string): Command {
  return program
    .command(verb)
    .description(description)
    .argument('<run>', 'a run id, or a unique prefix of one (a child run waits at its own gates)')
    .argument('<step>', 'the gate step')
    .option('--text <text>', "words for the run, `{{ gate.<step>.text }}` (a freeform gate's)")
    .option('-m, --manifest <file>', 'the manifest the run belongs to (default: the nearest wave.yaml, else this folder)')
    .action((runId: string, stepId: string, flags: AnswerFlags) => {
      const store = RunStore.open(findRunsRoot(process.cwd(), flags.manifest), runId);
      const { id } = store.record;
      const gate = waitingGate(store.record.steps[stepId]?.gate, id, stepId);
      if (flags.text !== undefined && !gate.freeform)
        throw new WaveError('invalid_argument', `the gate of step \`${stepId}\` takes no text`, { hint: 'Answer without --text; a gate with `freeform: true` takes text.' });
      const answer: GateAnswer = {
        at: new Date().toISOString(),
        ...(verb === 'reject' ? { reject: true } : choiceOf(gate, flags.choice, stepId)),
        ...(flags.text !== undefined ? { text: flags.text } : {}),
      };
      writeGateAnswer(store.dir, stepId, answer);
      const live = liveLockOwner(store.dir) !== undefined;
      const what = verb === 'reject' ? 'rejected' : `approved${answer.key !== undefined ? ` with \`${answer.key}\`` : ''}`;
      process.stdout.write(`gate ${stepId} of run ${id} ${what}${live ? '' : `; the run is not running: \`wave resume ${id}\` goes on with this answer`}\n`);
    });
}

/** The step's gate when it waits for a person; else why it cannot be answered. */
function waitingGate(gate: GateRecord | undefined, runId: string, stepId: string): GateRecord {
  if (!gate)
    throw new WaveError('invalid_argument', `step \`${stepId}\` of run ${runId} has not waited at a gate`, { hint: `See which step waits with \`wave status ${runId}\`.` });
  if (gate.status !== 'waiting')
    throw new WaveError('invalid_argument', `the gate of step \`${stepId}\` of run ${runId} is already resolved`, { hint: `See its decision with \`wave status ${runId}\`.` });
  if (gate.gate !== 'approval')
    throw new WaveError('invalid_argument', `step \`${stepId}\` of run ${runId} waits for a timer, not a person`, { hint: 'Cancel the run to stop waiting: `wave cancel`.' });
  return gate;
}

/** The choice `--choice` names, checked against the gate's; none given: the run takes the gate's default. */
function choiceOf(gate: GateRecord, key: string | undefined, stepId: string): Pick<GateAnswer, 'key'> {
  const keys = (gate.choices ?? []).map((c) => c.key);
  if (key === undefined) {
    if (keys.length && gate.defaultChoice === undefined)
      throw new WaveError('invalid_argument', `the gate of step \`${stepId}\` has choices and no default: say which`, { hint: `Add --choice with one of: ${keys.join(', ')}.` });
    return {};
  }
  if (!keys.includes(key))
    throw new WaveError('invalid_argument', `\`${key}\` is not a choice of the gate of step \`${stepId}\``, {
      hint: keys.length ? `Choose one of: ${keys.join(', ')}.` : 'This gate has no choices: approve it without --choice.',
    });
  return { key };
}
