import * as core from '@actions/core';
import type { SourceLocation } from '../../core/errors/errors.js';
import type { RunEvent } from '../../events.js';
import { formatClock } from '../format.js';
import { printAnnotations, type Annotation } from './github-annotations.js';
import { commandFreeLog } from './github-command-free.js';
import { eventAnnotation } from './github-event-annotation.js';
import { GithubStepGroups } from './github-step-groups.js';
import { safeValues } from '../safe-values.js';
import type { RunSink } from '../sink-types.js';
import { describeEvent } from '../text.js';

export interface GithubSinkOptions {
  /** The run folder, where each attempt's stdout and stderr are stored. */
  runDir: string;
  /** Each step's entry in the pipeline file, relative to the repository root. */
  stepLocations: ReadonlyMap<string, SourceLocation>;
  /** No two steps run at once: a step's group opens at its first event and its lines are printed as they come. */
  live?: boolean;
}

/** The GitHub sink, which tells how many error annotations it printed: the job's failure needs no other then. */
export interface GithubSink extends RunSink {
  readonly annotatedErrors: number;
}

/**
 * The GitHub Actions sink: one log group per step (its events, then its output), printed when the step ends so
 * parallel steps never interleave, or streamed as the step runs when steps run one at a time; an error annotation per
 * failed step at its line, warnings for contract warnings and egress denials, printed capped when the run ends. What
 * steps wrote is printed inside `::stop-commands::` regions, Wave's own groups and annotations outside them.
 */
export function createGithubSink(options: GithubSinkOptions): GithubSink {
  const annotations: Annotation[] = [];
  let annotatedErrors = 0;
  const log = commandFreeLog((line) => core.info(line));
  const groups = new GithubStepGroups(log, options.runDir, options.live ?? false);

  return {
    handle(untrusted: RunEvent) {
      // Annotations and lines alike show a step's control characters escaped.
      const event = safeValues(untrusted);
      const text = describeEvent(event, (id) => id);
      if (!('stepId' in event)) {
        if (text !== undefined) log.untrusted(`${formatClock(event.ts)} ${text}`);
        return;
      }
      groups.add(event, text === undefined ? undefined : `${formatClock(event.ts)} ${text}`);
      const annotation = eventAnnotation(event, options.stepLocations);
      if (annotation) annotations.push(annotation);
      switch (event.type) {
        case 'step_failed':
          groups.flush(event.stepId, 'failed', event.attempt);
          break;
        case 'step_completed':
          groups.flush(event.stepId, 'completed', event.attempt);
          break;
        case 'step_rejected':
          groups.flush(event.stepId, 'rejected', event.attempt);
          break;
        case 'step_skipped':
          groups.flush(event.stepId, 'skipped');
          break;
        case 'step_cancelled':
          groups.flush(event.stepId, 'cancelled');
          break;
        default:
          break;
      }
    },
    summarize() {
      groups.flushUnfinished();
      log.resume();
      annotatedErrors += printAnnotations(annotations);
      annotations.length = 0;
    },
    close() {
      // A run that ended in a fault is reported by the action after this: the runner must read its commands again.
      log.resume();
    },
    get annotatedErrors() {
      return annotatedErrors;
    },
  };
}
