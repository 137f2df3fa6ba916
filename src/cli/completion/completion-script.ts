import type { RootCommand } from '@bomb.sh/tab';
import { adaptBashScript } from './bash-script.js';

/** The script `shell` sources to complete `name`: the completion library's (bash's made safe to source anywhere). */
export function completionScript(completion: RootCommand, name: string, shell: string): string {
  const printed: string[] = [];
  const log = console.log;
  // The library hands its script over only by printing it: taken as text, so it can be adapted before it is printed.
  console.log = (...parts: unknown[]) => void printed.push(parts.join(' '));
  try {
    completion.setup(name, name, shell);
  } finally {
    console.log = log;
  }
  const script = printed.join('\n');
  return `${shell === 'bash' ? adaptBashScript(script, name) : script.trimEnd()}\n`;
}
