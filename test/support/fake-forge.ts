import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake forge says about one token: its scopes, none listed (a fine-grained token), or an HTTP error. */
export type FakeToken = { scopes: string[] } | { unlisted: true } | { status: number };

export interface FakeForge {
  /** GitHub's API root (GITHUB_API_URL). */
  githubUrl: string;
  /** GitLab's API root (CI_API_V4_URL). */
  gitlabUrl: string;
  requests: Array<{ path: string; headers: IncomingHttpHeaders }>;
  close(): Promise<void>;
}

/**
 * A local stand-in for the forges' APIs on 127.0.0.1: GitHub's GET /user (scopes in X-OAuth-Scopes, the token in
 * `Authorization: Bearer`) and GitLab's GET /personal_access_tokens/self (scopes in the JSON, the token in PRIVATE-TOKEN).
 */
export async function startFakeForge(tokens: Record<string, FakeToken>): Promise<FakeForge> {
  const requests: FakeForge['requests'] = [];
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push({ path, headers: req.headers });
    const github = path === '/github/user';
    const gitlab = path === '/gitlab/personal_access_tokens/self';
    const token = github ? /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] : String(req.headers['private-token'] ?? '');
    const answer = token !== undefined ? tokens[token] : undefined;
    if ((!github && !gitlab) || !answer) {
      res.writeHead(github || gitlab ? 401 : 404, { 'content-type': 'application/json' }).end('{"message":"Bad credentials"}');
      return;
    }
    if ('status' in answer) {
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end('{"message":"scripted"}');
      return;
    }
    const scopes = 'scopes' in answer ? answer.scopes : undefined;
    if (github) {
      res.writeHead(200, { 'content-type': 'application/json', ...(scopes ? { 'x-oauth-scopes': scopes.join(', ') } : {}) }).end('{"login":"octocat"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 1, name: 'wave', ...(scopes ? { scopes } : {}) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    githubUrl: `${base}/github`,
    gitlabUrl: `${base}/gitlab`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
