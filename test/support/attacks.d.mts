/** What an attacker puts in --input, an issue, or an earlier step's output. */
export declare const PAYLOADS: readonly string[];
/** A node -e script flipping `<dir>/d` between a symlink to `folder` and one to /etc. */
export declare const FLIPPER: string;
/** Templates inside quotes or a heredoc of a command. */
export declare const QUOTED_TEMPLATES: readonly string[];
export declare const FLOODER: string;
