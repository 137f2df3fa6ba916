import type { AdapterType } from '../core/resolved-adapter.js';
import type { RunEvent } from '../events.js';
import { providerAttributes, providerOf, usageAttributes, type TraceSettings } from './gen-ai-attributes.js';
import { endSpan, failSpan, openSpan } from './open-span.js';
import { callSpanId } from './trace-ids.js';
import type { TraceSpan } from './trace-span.js';

/** Where a model request's span hangs, and which of the step's requests it is. */
export interface ModelRequestPlace {
  traceId: string;
  runId: string;
  parentSpanId: string;
  index: number;
  adapterType?: AdapterType;
  settings: TraceSettings;
}

/** A model Wave asked for a step outside its attempts (an extract, a judge, a thread summary): a `chat` span at the moment it was recorded. */
export function modelRequestSpan(event: Extract<RunEvent, { type: 'model_request' }>, place: ModelRequestPlace): TraceSpan {
  const at = Date.parse(event.ts);
  const span = openSpan({
    traceId: place.traceId,
    spanId: callSpanId(place.runId, event.stepId, event.attempt, { kind: 'model', index: place.index }),
    parentSpanId: place.parentSpanId,
    name: `chat ${event.model ?? event.adapter}`,
    kind: 'client',
    startMs: at,
    attributes: {
      'gen_ai.operation.name': 'chat',
      ...(place.adapterType !== undefined ? providerAttributes(providerOf(place.adapterType, event.model), place.settings) : {}),
      ...(event.model !== undefined ? { 'gen_ai.request.model': event.model } : {}),
      ...usageAttributes(event.tokens, event.costUsd),
      'wave.step.id': event.stepId,
      'wave.attempt': event.attempt,
      'wave.purpose': event.purpose,
      'wave.adapter': event.adapter,
    },
  });
  if (!event.ok) failSpan(span, 'model_request_failed');
  return endSpan(span, at);
}
