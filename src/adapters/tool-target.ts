/** Argument names that say what a tool acts on, most telling first (file path, command, pattern, …). */
const TARGET_KEYS = ['file_path', 'filePath', 'filepath', 'notebook_path', 'absolute_path', 'path', 'command', 'cmd', 'pattern', 'query', 'url', 'dir_path', 'directory'] as const;

/** Longest target kept for the live view. */
const MAX_TARGET_CHARS = 200;

/** What a tool call acts on, read from its arguments: a file path, a command, a pattern; undefined when none. */
export function toolTarget(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const args = input as Record<string, unknown>;
  for (const key of TARGET_KEYS) {
    const value = args[key];
    const text = Array.isArray(value) ? value.filter((v) => typeof v === 'string').join(' ') : value;
    if (typeof text === 'string' && text.trim() !== '') return clip(text.trim());
  }
  return undefined;
}

function clip(text: string): string {
  const oneLine = text.includes('\n') ? text.replace(/\s*\n\s*/g, ' ') : text;
  return oneLine.length > MAX_TARGET_CHARS ? `${oneLine.slice(0, MAX_TARGET_CHARS)}…` : oneLine;
}
