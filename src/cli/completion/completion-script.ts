import type { RootCommand } from '@bomb.sh/tab';
import { WaveError } from '../../core/errors/errors.js';
import { bashScript } from './bash-script.js';
import { zshScript } from './zsh-script.js';

/**
 * The script `shell` sources to complete `name`: Wave's own for bash and zsh (they never evaluate the line or a
 * candidate), the completion library's for fish. PowerShell's is refused: the library's script runs the typed line
 * through Invoke-Expression, and no PowerShell here tests one that does not.
 */
export function completionScript(completion: RootCommand, name: string, shell: string): string {
  if (shell === 'bash') return bashScript(name);
  if (shell === 'zsh') return zshScript(name);
  if (shell !== 'fish') {
    throw new WaveError('not_supported', `no ${shell} completion: its script would evaluate the typed line`, {
      hint: 'Use bash, zsh or fish, whose scripts never evaluate what is typed or offered.',
    });
  }
  const printed: string[] = [];
  const log = console.log;
  // The library hands its script over only by printing it: taken as text, so it is printed once, with one final newline.
  console.log = (...parts: unknown[]) => void printed.push(parts.join(' '));
  try {
    completion.setup(name, name, shell);
  } finally {
    console.log = log;
  }
  return `${printed.join('\n').trimEnd()}\n`;
}
