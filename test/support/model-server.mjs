// A scripted model server for tests and offline tries: plain node http on 127.0.0.1.
// The behaviour comes from the URL: /s/<scenario>[/<param>…]/<api path>, where the api path starts at
// the first segment that looks like an API version (v1, v1beta, …). Each protocol is a handler module
// exporting `match(req, path)` and `async handle(ctx)`; HANDLER_MODULES lists them in route order.
//
//   node test/support/model-server.mjs [--port N] [--log requests.jsonl]   prints its URL first.
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { sendError } from './model-server/scenarios.mjs';

// Handlers import the scenario helpers from model-server/scenarios.mjs (importing this file would be a cycle).
export { FEEDBACK_HEADING, FENCED_ANSWER, FIRST_REVIEW, FIXED_REVIEW, encodeSequence, replyFor, sendError } from './model-server/scenarios.mjs';

/** Handler modules, tried in order; a module not written yet is skipped. */
const HANDLER_MODULES = ['./model-server/openai-chat.mjs', './model-server/anthropic.mjs', './model-server/responses.mjs', './model-server/gemini.mjs'];

/** Splits /s/<scenario>/<params…>/<api path> into its parts; a path without /s/ is scenario `text`. */
export function parseScenarioPath(pathname) {
  const segments = pathname.split('/').filter(Boolean);
  if (segments[0] !== 's' || segments.length < 2) return { scenario: 'text', params: [], prefix: '', path: pathname };
  const apiStart = segments.findIndex((s, i) => i >= 2 && /^v\d/.test(s));
  const end = apiStart === -1 ? 2 : apiStart;
  return {
    scenario: segments[1],
    params: segments.slice(2, end),
    prefix: `/${segments.slice(0, end).join('/')}`,
    path: `/${segments.slice(end).join('/')}`,
  };
}

async function loadHandlers() {
  const handlers = [];
  for (const spec of HANDLER_MODULES) {
    try {
      handlers.push(await import(new URL(spec, import.meta.url).href));
    } catch (error) {
      if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    }
  }
  return handlers;
}

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Starts the server on 127.0.0.1 (port 0 picks a free one). Resolves with
 * { url, requests, close() }; `requests` holds every request in order.
 */
export async function startModelServer({ port = 0, logFile, host = '127.0.0.1' } = {}) {
  const handlers = await loadHandlers();
  const requests = [];
  const counts = new Map();
  // What stateful scenarios count across requests (the writes of `rounds`), for this server only.
  const tallies = new Map();
  const sockets = new Set();
  const serve = async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const { scenario, params, prefix, path } = parseScenarioPath(url.pathname);
    const requestIndex = counts.get(prefix) ?? 0;
    counts.set(prefix, requestIndex + 1);
    const body = await readBody(req);
    const entry = { method: req.method, url: req.url, scenario, params, path, requestIndex, headers: req.headers, body };
    requests.push(entry);
    if (logFile) appendFileSync(logFile, `${JSON.stringify(entry)}\n`);
    const log = (message) => requests.push({ note: message, scenario, requestIndex });
    const handler = handlers.find((h) => h.match(req, path + url.search));
    if (!handler) return sendError(res, 404, `no handler for ${req.method} ${path}`);
    try {
      await handler.handle({ req, res, path, scenario, params, body, requestIndex, log, tallies });
    } catch (error) {
      if (!res.headersSent) sendError(res, 500, String(error?.stack ?? error));
      else res.destroy();
    }
  };
  // A request whose body never arrives (the client hung up) drops its socket instead of an unhandled rejection.
  const server = createServer((req, res) => void serve(req, res).catch(() => res.destroy()));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise((resolve) => server.listen(port, host, resolve));
  const url = `http://${host}:${server.address().port}`;
  return {
    url,
    requests,
    /** Closes the server and every open connection (hanging ones included). */
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function argValue(name) {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const server = await startModelServer({ port: Number(argValue('--port') ?? 0), logFile: argValue('--log'), host: argValue('--host') ?? '127.0.0.1' });
  process.stdout.write(`${server.url}\n`);
  // close() never rejects: it resolves once every socket is gone.
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
