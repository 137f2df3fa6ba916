import { launchLocal } from './launch-local.js';
import type { Launcher } from './launched-process.js';
import type { CgroupJail } from './cgroup-limits.js';

/**
 * A launcher that puts the process into a cgroup before it runs anything (a shell joins it, then execs), so that
 * whatever it starts stays there: leftovers are what the cgroup still holds, and terminating ends them all.
 */
export function jailedLauncher(jail: CgroupJail): Launcher {
  return (spec) => {
    const join = jail.procsFiles.map((_, i) => `echo $$ > "$${i + 1}"`).join(' && ');
    const script = `${join} || exit 125; shift ${jail.procsFiles.length}; exec "$@"`;
    return launchLocal({ ...spec, command: '/bin/sh', args: ['-c', script, 'sh', ...jail.procsFiles, spec.command, ...spec.args] }).then((started) => {
      if (!('process' in started)) return started;
      const inner = started.process;
      return {
        process: {
          ...inner,
          startError: () => inner.startError(),
          hasLeftovers: async () => (await inner.hasLeftovers()) || (await jail.populated()),
          terminate: (graceMs) => inner.terminate(graceMs).then(() => jail.kill()),
          limitExceeded: async () => ((await inner.exited)[0] === 0 ? undefined : jail.limitExceeded()),
        },
      };
    });
  };
}
