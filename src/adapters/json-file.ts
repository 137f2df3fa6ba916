import { readFile } from 'node:fs/promises';

/** The JSON object in a file, or {} when the file is missing, unreadable or holds something else: a settings file Wave adds keys to. */
export async function readJsonObject(path: string): Promise<Record<string, unknown>> {
  try {
    const value: unknown = JSON.parse(await readFile(path, 'utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
