import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SourceLocation } from '../core/errors/errors.js';

/**
 * The workflow file that runs this job, from the repository root, when GitHub names it and it is this repository's:
 * GITHUB_WORKFLOW_REF is `owner/repo/.github/workflows/ci.yml@refs/heads/main`.
 */
export function workflowFile(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const ref = env.GITHUB_WORKFLOW_REF;
  const repository = env.GITHUB_REPOSITORY;
  if (!ref || !repository) return undefined;
  const at = ref.lastIndexOf('@');
  const path = at === -1 ? ref : ref.slice(0, at);
  if (!path.startsWith(`${repository}/`)) return undefined;
  const file = path.slice(repository.length + 1);
  return file.startsWith('.github/workflows/') && !file.split('/').includes('..') ? file : undefined;
}

/**
 * Where an input of the action is set: the workflow file, at the line that sets it when the checkout holds the file and
 * exactly one line of it does; undefined when GitHub names no workflow file (an annotation then names no file).
 */
export function inputLocation(name: string, env: NodeJS.ProcessEnv = process.env): SourceLocation | undefined {
  const file = workflowFile(env);
  if (!file) return undefined;
  const line = settingLine(join(env.GITHUB_WORKSPACE ?? process.cwd(), file), name);
  return line === undefined ? { file } : { file, line };
}

/** The 1-based line of the one `name:` key in a YAML file; undefined when the file is unreadable or several lines set it. */
function settingLine(path: string, name: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const key = new RegExp(`^\\s*(?:-\\s+)?['"]?${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}['"]?\\s*:`);
  const lines = text.split(/\r?\n/).flatMap((line, index) => (key.test(line) ? [index + 1] : []));
  return lines.length === 1 ? lines[0] : undefined;
}
