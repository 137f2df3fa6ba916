// Types of the scripted model server (model-server.mjs), for the TypeScript tests that start it.
export interface LoggedRequest {
  method?: string;
  url?: string;
  scenario: string;
  params: string[];
  path: string;
  requestIndex: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  note?: string;
}
export interface ModelServer {
  url: string;
  requests: LoggedRequest[];
  close(): Promise<void>;
}
export const FENCED_ANSWER: string;
export const FIRST_REVIEW: string;
export const FIXED_REVIEW: string;
export const FEEDBACK_HEADING: string;
export function encodeSequence(answers: Array<string | { status?: number; retry_after?: string | number; text?: string }>): string;
export function parseScenarioPath(pathname: string): { scenario: string; params: string[]; prefix: string; path: string };
export function startModelServer(options?: { port?: number; logFile?: string; host?: string }): Promise<ModelServer>;
