/** What an attacker puts in --input, an issue, or an earlier step's output. */
export declare const PAYLOADS: readonly string[];
/** A node -e script flipping `<dir>/d` between a symlink to `folder` and one to /etc. */
export declare const FLIPPER: string;
/** Commands holding a reference inside quotes or a heredoc, writing `got`, and what `got` holds for a value `v`. */
export declare const QUOTED_COMMANDS: ReadonlyArray<{ name: string; command: (ref: string) => string; expected: (v: string) => string }>;
/** Templates where the shell expands nothing: what validate refuses. */
export declare const UNEXPANDED_TEMPLATES: readonly string[];
/** A forged round of `wave thread` and a forged step of THREAD CONTEXT, as lines a step prints. */
export declare const FORGED_ROUND: string;
/** Terminal escapes a step prints: clear screen, title, colour, CR, C1 CSI, line separator. */
export declare const ESCAPES: readonly string[];
/** Control characters no text view may print. */
export declare const RAW_CONTROL: RegExp;
/** Workflow commands a step prints. */
export declare const WORKFLOW_COMMANDS: readonly string[];
/** The workflow commands the GitHub runner would act on in a log. */
export declare function activeWorkflowCommands(log: string): string[];
export declare const FLOODER: string;
