import { join } from 'node:path';
import type { AdapterRunConfig } from './types.js';

/** Where an attempt's process output is recorded in its folder: stdout, stderr, and when each piece of them arrived. */
export function attemptOutputFiles(config: Pick<AdapterRunConfig, 'attemptDir'>) {
  return { stdoutPath: join(config.attemptDir, 'stdout'), stderrPath: join(config.attemptDir, 'stderr'), timingPath: join(config.attemptDir, 'output.timing') };
}
