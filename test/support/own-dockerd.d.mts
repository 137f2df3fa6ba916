/** A Docker daemon of one test or bench, on its own socket, data root and exec root, with the sandbox image built into it. */
export declare class OwnDockerd {
  /** Its folder under /tmp: socket, data root, exec root, log. */
  readonly dir: string;
  /** Its DOCKER_HOST. */
  readonly host: string;
  /** The dockerd process, once started. */
  pid: number;
  /** Starts the daemon (again, after a kill or stop) and waits until it answers; builds the sandbox image into it. */
  start(): Promise<void>;
  /** Whether the daemon answers a request. */
  answers(): boolean;
  /** Kills the daemon outright (kill -9), as a crash would. */
  kill(): void;
  /** Freezes the daemon (SIGSTOP): its socket stays open and nothing answers. */
  freeze(): void;
  /** Lets a frozen daemon go on. */
  thaw(): void;
  /** Stops the daemon as `systemctl stop docker` would, and waits until it is gone. */
  stop(): Promise<void>;
  /** Stops the daemon, ends what it left (its containerd and shims, found by its folder), unmounts and removes its folder. */
  remove(): Promise<void>;
}
