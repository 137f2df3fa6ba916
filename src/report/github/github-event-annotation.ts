import type { SourceLocation } from '../../core/errors/errors.js';
import type { RunEvent } from '../../events.js';
import { failureDetail } from '../describe.js';
import type { Annotation } from './github-annotations.js';

/** The annotation an event makes, at its step's line: an error for a failed step (a warning when optional), warnings for a warn contract that failed, a review that warned and a denied connection. */
export function eventAnnotation(event: RunEvent, stepLocations: ReadonlyMap<string, SourceLocation>): Annotation | undefined {
  const at = (stepId: string) => {
    const location = stepLocations.get(stepId);
    return location ? { file: location.file, line: location.line, column: location.column } : {};
  };
  switch (event.type) {
    case 'step_failed': {
      // The class and the message's first line once, then the rest of the message and the hint.
      const level = event.optional ? 'warning' : 'error';
      return { level, title: `Step ${event.stepId} failed${event.optional ? ' (optional)' : ''}`, message: failureDetail(event.failure).join('\n'), ...at(event.stepId) };
    }
    case 'step_rejected':
      return { level: 'warning', title: `Step ${event.stepId} rejected: nothing to do`, message: failureDetail(event.failure).join('\n'), ...at(event.stepId) };
    case 'contract_checked':
      if (event.passed || event.action !== 'warn') return undefined;
      return {
        level: 'warning',
        title: `Step ${event.stepId}: contract ${event.contract} failed`,
        message: event.errors.join('\n') || 'The contract failed.',
        ...at(event.stepId),
      };
    case 'review_completed':
      // A warn verdict passes the contract: the annotation keeps what the reviewer warned about in sight.
      if (event.verdict !== 'warn') return undefined;
      return { level: 'warning', title: `Step ${event.stepId}: review by ${event.reviewer} warns`, message: event.summary || 'The reviewer warned.', ...at(event.stepId) };
    case 'egress': {
      if (event.allowed) return undefined;
      const reason = event.reason ? ` (${event.reason})` : '';
      return { level: 'warning', title: `Step ${event.stepId}: egress denied`, message: `${event.host}:${event.port} was refused${reason}.`, ...at(event.stepId) };
    }
    default:
      return undefined;
  }
}
