import type { TokenUsage } from '../core/models/tokens.js';

/** A duration for people: 850ms → 0.9s, 12.3s, 3m04s, 1h02m. */
export function formatDuration(ms: number): string {
  const tenths = Math.round(Math.max(0, ms) / 100);
  if (tenths < 600) return `${(tenths / 10).toFixed(1)}s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m${pad2(seconds % 60)}s`;
  const minutes = Math.round(ms / 60_000);
  return `${Math.floor(minutes / 60)}h${pad2(minutes % 60)}m`;
}

/** A count for people: 950, 12.3k, 4.5M. */
export function formatCount(n: number): string {
  if (Math.round(n) < 1000) return String(Math.round(n));
  const thousands = Math.round(n / 100) / 10;
  if (thousands < 1000) return `${thousands.toFixed(1)}k`;
  return `${(Math.round(n / 100_000) / 10).toFixed(1)}M`;
}

/** US dollars: $0.0123 under a dollar, $1.23 above, <$0.0001 for dust. */
export function formatCost(usd: number): string {
  if (usd > 0 && usd < 0.00005) return '<$0.0001';
  return usd < 1 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/** Tokens in and out, with cache traffic when there was any: `12.3k in / 450 out`. */
export function formatTokens(tokens: TokenUsage): string {
  const cache = tokens.cacheRead + tokens.cacheWrite;
  const base = `${formatCount(tokens.input)} in / ${formatCount(tokens.output)} out`;
  return cache > 0 ? `${base} (cache ${formatCount(cache)})` : base;
}

/** A size for people: 512 B, 1.2 KB, 3.4 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1023.95 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** The local wall-clock time of an ISO timestamp, HH:MM:SS. */
export function formatClock(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '--:--:--';
  return `${pad2(date.getHours())}:${pad2(date.getMinutes())}:${pad2(date.getSeconds())}`;
}

/** The local date and minute of an ISO timestamp, YYYY-MM-DD HH:MM. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '?';
  return `${date.getFullYear()}-${pad2(date.getMonth() + 1)}-${pad2(date.getDate())} ${pad2(date.getHours())}:${pad2(date.getMinutes())}`;
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}
