import * as core from '@actions/core';
import { WaveError } from '../core/errors/errors.js';
import { stepList } from '../core/step-list.js';
import { inputLocation } from './workflow-file.js';

/** The inputs action.yml declares, as the entry reads them (a test checks the two agree). */
export const ACTION_INPUTS = [
  'pipeline',
  'input',
  'input-file',
  'manifest',
  'working-directory',
  'steps',
  'exclude',
  'on-failure',
  'timeout-minutes',
  'fail-on-error',
  'install-agents',
  'replay',
] as const;

export interface ActionInputs {
  pipeline: string;
  input?: string;
  inputFile?: string;
  manifest?: string;
  workingDirectory?: string;
  steps?: string[];
  exclude?: string[];
  onFailure: 'halt' | 'continue';
  timeoutMinutes?: number;
  failOnError: boolean;
  installAgents: string[];
  /** A recorded run (an id) or a cassette file that serves every agent and model attempt. */
  replay?: string;
}

/** The action's inputs, checked; a wrong value is an invalid_argument naming the input. */
export function readActionInputs(): ActionInputs {
  const text = (name: (typeof ACTION_INPUTS)[number]) => core.getInput(name) || undefined;
  const pipeline = text('pipeline');
  if (!pipeline) throw inputError('pipeline', '', 'Set `pipeline` to a pipeline file or a name under pipelines/.');
  const onFailure = text('on-failure') ?? 'halt';
  if (onFailure !== 'halt' && onFailure !== 'continue') throw inputError('on-failure', onFailure, 'Set `on-failure` to halt or continue.');
  return {
    pipeline,
    input: text('input'),
    inputFile: text('input-file'),
    manifest: text('manifest'),
    workingDirectory: text('working-directory'),
    steps: listInput(text('steps')),
    exclude: listInput(text('exclude')),
    onFailure,
    timeoutMinutes: minutesInput(text('timeout-minutes')),
    failOnError: booleanInput('fail-on-error', text('fail-on-error') ?? 'true'),
    installAgents: listInput(text('install-agents')) ?? [],
    replay: text('replay'),
  };
}

function listInput(value: string | undefined): string[] | undefined {
  return value === undefined ? undefined : stepList(value);
}

function minutesInput(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const minutes = Number(value);
  if (!(minutes > 0)) throw inputError('timeout-minutes', value, 'Set `timeout-minutes` to a positive number of minutes.');
  return minutes;
}

/** The YAML 1.2 core schema booleans, as @actions/core's getBooleanInput accepts them. */
function booleanInput(name: string, value: string): boolean {
  if (['true', 'True', 'TRUE'].includes(value)) return true;
  if (['false', 'False', 'FALSE'].includes(value)) return false;
  throw inputError(name, value, `Set \`${name}\` to true or false.`);
}

/** A wrong input, located where the workflow sets it (action.yml is not in the user's repository). */
function inputError(name: string, value: string, hint: string): WaveError {
  return new WaveError('invalid_argument', value ? `input \`${name}\` is \`${value}\`, which is not valid` : `input \`${name}\` is required`, {
    hint,
    location: inputLocation(name),
  });
}
