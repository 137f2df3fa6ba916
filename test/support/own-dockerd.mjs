// A Docker daemon of one test or bench, on its own socket, data root and exec root (never the machine's shared one),
// with the default sandbox image built into it, so that it may be killed, frozen and stopped.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const WAVE_BIN = fileURLToPath(new URL('../../bin/wave.cjs', import.meta.url));

/** Whether a process is running; a zombie (ended, not yet reaped) counts as gone. */
function isAlive(pid) {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** A process's command line, or nothing once it is gone. */
function commandLine(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

/** Polls `check` every 100 ms until it holds, or throws naming `what` after `timeoutMs`. */
async function until(check, what, timeoutMs) {
  for (const deadline = Date.now() + timeoutMs; !check(); await new Promise((resolve) => setTimeout(resolve, 100))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}

export class OwnDockerd {
  /** Short: the socket path must stay within 108 bytes. */
  dir = mkdtempSync('/tmp/wdd-');
  host = `unix://${join(this.dir, 'd.sock')}`;
  pid = 0;

  async start() {
    // The containerd of a killed daemon dies with it but may linger as a zombie, which dockerd would wait on forever.
    const containerdPid = join(this.dir, 'x', 'containerd', 'containerd.pid');
    if (existsSync(containerdPid)) await until(() => !isAlive(Number(readFileSync(containerdPid, 'utf8'))), "the killed daemon's containerd to end", 30_000);
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
    this.pid = daemon.pid;
    await until(() => this.answers(), 'the own dockerd to answer', 60_000).catch((error) => {
      throw new Error(`${error.message}; the end of its log:\n${readFileSync(join(this.dir, 'dockerd.log'), 'utf8').slice(-2000)}`);
    });
    execFileSync(process.execPath, [WAVE_BIN, 'sandbox', 'image'], { env: { ...process.env, DOCKER_HOST: this.host }, stdio: 'ignore', timeout: 120_000 });
  }

  answers() {
    try {
      execFileSync('docker', ['version'], { env: { ...process.env, DOCKER_HOST: this.host }, stdio: 'ignore', timeout: 5_000 });
      return true;
    } catch {
      return false;
    }
  }

  kill() {
    process.kill(this.pid, 'SIGKILL');
  }

  freeze() {
    process.kill(this.pid, 'SIGSTOP');
  }

  thaw() {
    if (isAlive(this.pid)) process.kill(this.pid, 'SIGCONT');
  }

  async stop() {
    if (!isAlive(this.pid)) return;
    process.kill(this.pid, 'SIGTERM');
    await until(() => !isAlive(this.pid), 'the own dockerd to stop', 60_000);
  }

  async remove() {
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
