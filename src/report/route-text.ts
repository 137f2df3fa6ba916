import type { RunEvent } from '../events.js';

/** Where the walk went from a step, on what, and which steps run again: `→ fix (outcome=failure); again: fix, test, check`. */
export function routeText(event: Extract<RunEvent, { type: 'step_routed' }>): string {
  const when = event.when ? ` (${event.when})` : '';
  const again = event.requeued.length ? `; again: ${event.requeued.join(', ')}` : '';
  return `→ ${event.target}${when}, outcome ${event.outcome}${again}`;
}
