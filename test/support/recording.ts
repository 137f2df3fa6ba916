/** The event types of a run in order, leaving out those of the replay itself and the live view's progress. */
export function replayedEventTypes(run: { events: Array<Record<string, any>> }): string[] {
  return run.events.map((e) => e.type as string).filter((t) => !['replay_matched', 'replay_mismatch', 'step_tokens', 'attempt_spawned'].includes(t));
}
