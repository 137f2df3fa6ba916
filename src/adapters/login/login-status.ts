/** Whether an agent CLI would find credentials: `ok`, `missing` (a run would be refused), or `unknown` (the check could not tell). */
export interface LoginStatus {
  state: 'ok' | 'missing' | 'unknown';
  /** What was found, or what is missing. */
  detail: string;
  /** What to do, when it is not the CLI's usual login hint. */
  hint?: string;
  /** Something worth saying although the CLI can run (OpenCode's free models). */
  warning?: string;
}
