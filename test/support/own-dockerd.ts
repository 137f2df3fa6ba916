import { execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { WAVE_BIN } from './cli.js';
import { requirementMet } from './requirement.js';
import { isAlive, waitFor } from './wait.js';

/** Whether this machine can start a Docker daemon of a test's own: dockerd and socat installed, Wave running as root. */
export function ownDockerdAvailable(): boolean {
  const met = existsSync('/usr/sbin/dockerd') || existsSync('/usr/bin/dockerd');
  return requirementMet(
    'a Docker daemon of the test',
    met && existsSync('/usr/bin/socat') && process.getuid?.() === 0,
    'run as root with docker.io and socat installed (bash .ci/sandbox-up.sh)',
  );
}

/** A process's command line, or nothing once it is gone. */
function commandLine(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

/**
 * A Docker daemon a test starts on its own socket, data root and exec root (never the machine's shared one), with the
 * default sandbox image built into it, so that the test may kill it.
 */
export class OwnDockerd {
  /** Short: the socket path must stay within 108 bytes. */
  readonly dir = mkdtempSync('/tmp/wdd-');
  readonly host = `unix://${join(this.dir, 'd.sock')}`;
  pid = 0;

  /** Starts the daemon and waits until it answers; builds the sandbox image into it the first time. */
  async start(): Promise<void> {
    // The containerd of a killed daemon dies with it but may linger as a zombie, which dockerd would wait on forever.
    const containerdPid = join(this.dir, 'x', 'containerd', 'containerd.pid');
    if (existsSync(containerdPid)) await waitFor(() => !isAlive(Number(readFileSync(containerdPid, 'utf8'))), "the killed daemon's containerd to end", 30_000);
    rmSync(join(this.dir, 'd.pid'), { force: true });
    rmSync(containerdPid, { force: true });
    const args = [`--host=${this.host}`, `--data-root=${join(this.dir, 'data')}`, `--exec-root=${join(this.dir, 'x')}`, `--pidfile=${join(this.dir, 'd.pid')}`];
    const log = openSync(join(this.dir, 'dockerd.log'), 'a');
    const daemon = spawn('dockerd', [...args, '--iptables=false', '--ip-forward=false', '--bridge=none', '--storage-driver=overlay2'], {
      detached: true,
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    daemon.unref();
    this.pid = daemon.pid!;
    await waitFor(() => this.answers(), 'the test dockerd to answer', 60_000).catch((error: Error) => {
      throw new Error(`${error.message}; the end of its log:\n${readFileSync(join(this.dir, 'dockerd.log'), 'utf8').slice(-2000)}`);
    });
    execFileSync(process.execPath, [WAVE_BIN, 'sandbox', 'image'], { env: { ...process.env, DOCKER_HOST: this.host }, stdio: 'ignore', timeout: 120_000 });
  }

  /** Whether the daemon answers a request. */
  answers(): boolean {
    try {
      execFileSync('docker', ['version'], { env: { ...process.env, DOCKER_HOST: this.host }, stdio: 'ignore', timeout: 5_000 });
      return true;
    } catch {
      return false;
    }
  }

  /** Kills the daemon outright (kill -9), as a crash would. */
  kill(): void {
    process.kill(this.pid, 'SIGKILL');
  }

  /** Freezes the daemon (SIGSTOP): its socket stays open and nothing answers. */
  freeze(): void {
    process.kill(this.pid, 'SIGSTOP');
  }

  /** Lets a frozen daemon go on. */
  thaw(): void {
    process.kill(this.pid, 'SIGCONT');
  }

  /** Stops the daemon as `systemctl stop docker` would, and waits until it is gone. */
  async stop(): Promise<void> {
    if (!isAlive(this.pid)) return;
    process.kill(this.pid, 'SIGTERM');
    await waitFor(() => !isAlive(this.pid), 'the test dockerd to stop', 60_000);
  }

  /** Stops the daemon, ends what it left (its containerd and shims, found by this daemon's folder), unmounts and removes its folder. */
  async remove(): Promise<void> {
    this.thaw();
    await this.stop().catch(() => this.kill());
    for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      if (commandLine(pid).includes(this.dir)) process.kill(Number(pid), 'SIGKILL');
    }
    const mounts = readFileSync('/proc/mounts', 'utf8')
      .split('\n')
      .map((line) => line.split(' ')[1] ?? '')
      .filter((path) => path.startsWith(this.dir))
      .reverse();
    for (const mount of mounts) execFileSync('umount', ['-l', mount], { stdio: 'ignore' });
    rmSync(this.dir, { recursive: true, force: true });
  }
}
