import type { Readable, Writable } from 'node:stream';
import type { SpawnSpec } from './spawn-spec.js';

/** A started process as spawnInGroup drives it: a host process group, or a container. */
export interface LaunchedProcess {
  /** The host pid of the group leader, recorded so a later resume can stop an orphan; none for a container. */
  readonly pid?: number;
  readonly stdin: Writable | null;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  /** The exit code and signal; both null when the process never started. */
  readonly exited: Promise<[number | null, NodeJS.Signals | null]>;
  /** Resolves once stdout and stderr are closed. */
  readonly closed: Promise<void>;
  /** An error raised while starting (ENOENT, EACCES), once known. */
  startError(): NodeJS.ErrnoException | undefined;
  /** Ends every process of the step: SIGTERM, then SIGKILL after graceMs. Never rejects. */
  terminate(graceMs: number): Promise<void>;
  /** After the leader exited: whether anything it started is still running. */
  hasLeftovers(): Promise<boolean>;
  /** A resource limit that stopped the process ("memory limit of 256 MB reached"), once it has exited. */
  limitExceeded(): Promise<string | undefined>;
  /** Lets go of what the launch holds (the exit-time kill list, a container). Never rejects. */
  release(): Promise<void>;
}

/** Starts a spec; a start that fails outright returns the error instead. */
export type Launcher = (spec: SpawnSpec) => Promise<{ process: LaunchedProcess } | { error: NodeJS.ErrnoException }>;
