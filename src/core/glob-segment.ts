/** One path segment of a glob as a regular expression: `*`, `?` and `[…]` (`[!…]` negates) as Go's filepath.Match reads them. */
export function segmentPattern(segment: string): RegExp {
  let source = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else if (c === '\\' && i + 1 < segment.length) source += escape(segment[++i]!);
    else if (c === '[') {
      const end = segment.indexOf(']', i + 2);
      if (end < 0) {
        source += '\\[';
        continue;
      }
      let body = segment.slice(i + 1, end);
      const negated = body.startsWith('!') || body.startsWith('^');
      if (negated) body = body.slice(1);
      source += `[${negated ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
      i = end;
    } else source += escape(c);
  }
  return new RegExp(`^${source}$`);
}

function escape(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
