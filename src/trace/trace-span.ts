/** A span attribute's value: the OTLP scalar kinds, and lists of strings. */
export type AttributeValue = string | number | boolean | string[];

/** A span's (or its event's, or link's) attributes by name. */
export type Attributes = Record<string, AttributeValue>;

/** Something that happened at one moment of a span: a retry's wait, a contract's verdict, a denied host. */
export interface TraceSpanEvent {
  name: string;
  timeMs: number;
  attributes: Attributes;
}

/** A span this one is related to without being its child: the run it resumed or replayed. */
export interface TraceSpanLink {
  traceId: string;
  spanId: string;
  attributes: Attributes;
}

/** `error` with a message when the work it stands for failed; `unset` otherwise, as the GenAI conventions ask. */
export interface TraceSpanStatus {
  code: 'unset' | 'error';
  message?: string;
}

/** One ended span of a run's trace, as the fold of its events makes it. Times are epoch milliseconds, as events carry them. */
export interface TraceSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** `client` for a call out of the Wave process (an agent, a model, a tool the agent ran); `internal` for the rest. */
  kind: 'internal' | 'client';
  startMs: number;
  endMs: number;
  attributes: Attributes;
  events: TraceSpanEvent[];
  links: TraceSpanLink[];
  status: TraceSpanStatus;
}
