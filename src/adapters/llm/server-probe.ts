import { fetchFailureCause } from '../../core/http-status.js';

/** How long the model server may take to answer the probe. */
const PROBE_TIMEOUT_MS = 3_000;

/** What GET <base_url>/models found: whether an `llm` adapter's server answers, and how. */
export interface ServerProbe {
  ok: boolean;
  detail: string;
  hint?: string;
}

/**
 * Asks an OpenAI-compatible server for its models (`GET <base_url>/models`, with the key when the adapter names one).
 * Any answer shows the server is up; a refused key (401, 403), a refused connection or no answer in time is a failure.
 */
export async function probeModelServer(adapterName: string, baseUrl: string, key: string | undefined, timeoutMs = PROBE_TIMEOUT_MS): Promise<ServerProbe> {
  const url = `${baseUrl.replace(/\/+$/, '')}/models`;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: key ? { authorization: `Bearer ${key}` } : {} });
    await response.body?.cancel();
    if (response.status === 401 || response.status === 403) {
      return {
        ok: false,
        detail: `GET ${url} answered ${response.status}: the server refused the key`,
        hint: `Check the key in the variable adapters.${adapterName}.api_key_env names, or set api_key_env if the server needs one.`,
      };
    }
    return { ok: true, detail: `GET ${url} answered ${response.status}` };
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    const why = timedOut ? `no answer within ${timeoutMs / 1000} s` : fetchFailureCause(error);
    return { ok: false, detail: `GET ${url} failed: ${why}`, hint: `Start the model server, or point adapters.${adapterName}.base_url at the one that runs (…/v1).` };
  }
}
