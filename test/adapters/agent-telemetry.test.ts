import { describe, expect, it } from 'vitest';
import { buildClaudeEnv } from '../../src/adapters/claude/invocation.js';
import { codexSettings } from '../../src/adapters/codex/invocation.js';
import { buildGeminiEnv } from '../../src/adapters/gemini/invocation.js';
import { openCodeConfig } from '../../src/adapters/opencode/workspace.js';
import { otelEnv } from '../../src/adapters/telemetry-env.js';
import type { AdapterRunConfig, AttemptTelemetry } from '../../src/adapters/types.js';
import type { AdapterType } from '../../src/core/resolved-adapter.js';

const TELEMETRY: AttemptTelemetry = {
  traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
  tracesUrl: 'http://collector.example:4318/v1/traces',
  headers: { authorization: 'Bearer k=1,2' },
  resource: { 'wave.run_id': 'r-1', 'wave.step': 'plan' },
};

function config(type: AdapterType, telemetry?: AttemptTelemetry): AdapterRunConfig {
  return {
    runId: 'r-1',
    stepId: 'plan',
    attempt: 1,
    prompt: 'p',
    execType: 'prompt',
    workspace: '/w',
    attemptDir: '/a',
    env: { PATH: '/usr/bin' },
    graceMs: 100,
    maxLineBytes: 1024,
    adapter: { name: type, type, env: {}, isolated: false },
    ...(telemetry ? { telemetry } : {}),
  };
}

describe("a traced attempt's process: the OpenTelemetry variables", () => {
  it('names the parent span, sends spans only, as OTLP/HTTP JSON, with the headers and attributes percent-encoded', () => {
    expect(otelEnv(TELEMETRY)).toEqual({
      TRACEPARENT: TELEMETRY.traceparent,
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_METRICS_EXPORTER: 'none',
      OTEL_LOGS_EXPORTER: 'none',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector.example:4318/v1/traces',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'authorization=Bearer%20k%3D1%2C2',
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20k%3D1%2C2',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector.example:4318',
      OTEL_RESOURCE_ATTRIBUTES: 'wave.run_id=r-1,wave.step=plan',
    });
  });

  it('gives the base endpoint as the traces URL less its /v1/traces, and a URL without that path as it is', () => {
    expect(otelEnv({ ...TELEMETRY, tracesUrl: 'http://c.example/otlp/v1/traces/' }).OTEL_EXPORTER_OTLP_ENDPOINT).toBe('http://c.example/otlp');
    expect(otelEnv({ ...TELEMETRY, tracesUrl: 'http://c.example/ingest' }).OTEL_EXPORTER_OTLP_ENDPOINT).toBe('http://c.example/ingest');
  });

  it('sets no header variable when the collector wants none', () => {
    const env = otelEnv({ ...TELEMETRY, headers: {} });
    expect(env.OTEL_EXPORTER_OTLP_HEADERS).toBeUndefined();
    expect(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS).toBeUndefined();
  });
});

describe("each agent CLI's own switches", () => {
  it('Claude Code: telemetry and its tracing on, never its prompt or tool content switches; untraced, neither', () => {
    const traced = buildClaudeEnv(config('claude', TELEMETRY), []);
    expect(traced).toMatchObject({ CLAUDE_CODE_ENABLE_TELEMETRY: '1', CLAUDE_CODE_ENHANCED_TELEMETRY_BETA: '1' });
    for (const name of ['OTEL_LOG_USER_PROMPTS', 'OTEL_LOG_TOOL_DETAILS', 'OTEL_LOG_TOOL_CONTENT', 'OTEL_LOG_ASSISTANT_RESPONSES']) expect(traced[name]).toBeUndefined();
    const untraced = buildClaudeEnv(config('claude'), []);
    expect(untraced.CLAUDE_CODE_ENABLE_TELEMETRY).toBeUndefined();
    expect(untraced.CLAUDE_CODE_ENHANCED_TELEMETRY_BETA).toBeUndefined();
  });

  it('Codex: an [otel] trace exporter to the collector as JSON with its headers, prompts only when captured; untraced, no [otel]', () => {
    const settings = new Map(codexSettings(config('codex', TELEMETRY)));
    expect(settings.get('otel.trace_exporter')).toBe(
      '{ otlp-http = { endpoint = "http://collector.example:4318/v1/traces", protocol = "json", headers = { "authorization" = "Bearer k=1,2" } } }',
    );
    expect(settings.get('otel.log_user_prompt')).toBe('false');
    expect(codexSettings(config('codex')).filter(([key]) => key.startsWith('otel.'))).toEqual([]);
  });

  it("Gemini CLI: its telemetry to the collector's base URL over HTTP, never its prompts; untraced, none", () => {
    expect(buildGeminiEnv(config('gemini', TELEMETRY))).toMatchObject({
      GEMINI_TELEMETRY_ENABLED: 'true',
      GEMINI_TELEMETRY_TARGET: 'local',
      GEMINI_TELEMETRY_OTLP_ENDPOINT: 'http://collector.example:4318',
      GEMINI_TELEMETRY_OTLP_PROTOCOL: 'http',
      GEMINI_TELEMETRY_LOG_PROMPTS: 'false',
    });
    expect(buildGeminiEnv(config('gemini')).GEMINI_TELEMETRY_ENABLED).toBeUndefined();
  });

  it("OpenCode: the model calls' spans on when traced, absent otherwise", () => {
    expect(openCodeConfig(config('opencode', TELEMETRY)).experimental).toEqual({ openTelemetry: true });
    expect(openCodeConfig(config('opencode')).experimental).toBeUndefined();
  });
});
