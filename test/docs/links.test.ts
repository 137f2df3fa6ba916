import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.js';
import { docPages, headingAnchors, headingSlug, markdownLinks } from '../support/markdown.js';

/** What is wrong with one link of `page`, or undefined when its file and its heading exist. */
function brokenLink(page: string, target: string): string | undefined {
  if (/^[a-z][a-z+.-]*:/i.test(target)) return undefined;
  const [path = '', anchor] = target.split('#', 2);
  const file = path === '' ? page : resolve(dirname(page), decodeURIComponent(path));
  if (!existsSync(file)) return `no file ${relative(ROOT, file)}`;
  if (anchor === undefined) return undefined;
  if (!file.endsWith('.md')) return `an anchor into ${relative(ROOT, file)}, which has no headings`;
  return headingAnchors(readFileSync(file, 'utf8')).has(anchor) ? undefined : `no heading #${anchor} in ${relative(ROOT, file)}`;
}

/** The relative targets (no scheme, no anchor) every link of `page` names. */
function linkedFiles(page: string): string[] {
  return markdownLinks(readFileSync(page, 'utf8'))
    .map((link) => link.target)
    .filter((target) => !/^[a-z][a-z+.-]*:/i.test(target) && !target.startsWith('#'))
    .map((target) => resolve(dirname(page), target.split('#')[0]!));
}

describe('links in README.md and docs/', () => {
  it('lead to files that exist, and anchors to headings that exist', () => {
    const broken = docPages().flatMap((page) =>
      markdownLinks(readFileSync(page, 'utf8')).flatMap(({ target, line }) => {
        const problem = brokenLink(page, target);
        return problem ? [`${relative(ROOT, page)}:${line}: (${target}) ${problem}`] : [];
      }),
    );
    expect(broken).toEqual([]);
  });

  it('are found, anchors included, outside code', () => {
    const links = markdownLinks('See [a](b.md#c-d) and `[x](not-a-link)`.\n\n```md\n[y](nor-this)\n```\n[`e`](#f)\n');
    expect(links).toEqual([
      { target: 'b.md#c-d', line: 1 },
      { target: '#f', line: 6 },
    ]);
    expect(headingSlug('The run id, `--run-id` and `wave assemble`')).toBe('the-run-id---run-id-and-wave-assemble');
    expect(headingSlug("Wave's `.agents/` layout")).toBe('waves-agents-layout');
    expect([...headingAnchors('# A\n\n```sh\n# not a heading\n```\n## A\n')]).toEqual(['a', 'a-1']);
    expect(brokenLink(join(ROOT, 'README.md'), 'docs/cli.md#no-such-heading')).toBe('no heading #no-such-heading in docs/cli.md');
    expect(brokenLink(join(ROOT, 'README.md'), 'docs/no-such-page.md')).toBe('no file docs/no-such-page.md');
  });

  it('join the pages: README links to every docs page, and every docs page links back to README', () => {
    const [readme, ...pages] = docPages();
    expect(pages.length).toBeGreaterThan(5);
    expect(pages.filter((page) => !linkedFiles(readme!).includes(page)).map((page) => basename(page))).toEqual([]);
    expect(pages.filter((page) => !linkedFiles(page).includes(readme!)).map((page) => basename(page))).toEqual([]);
  });
});
