import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveBinary } from '../../src/process/binary.js';
import { packageVersionOf } from '../../src/process/package-version.js';

const require = createRequire(import.meta.url);

function folder(): string {
  return mkdtempSync(join(tmpdir(), 'wave-pkgver-'));
}

describe('the package and version of the binary an attempt starts', () => {
  it('names the installed agent CLI by its own package.json', () => {
    const claude = resolveBinary('claude', { PATH: '' });
    expect(claude).toBeDefined();
    const { version } = JSON.parse(readFileSync(require.resolve('@anthropic-ai/claude-code/package.json'), 'utf8')) as { version: string };
    expect(packageVersionOf(claude!)).toBe(`@anthropic-ai/claude-code@${version}`);
  });

  it('follows a link in .bin to the file a package bin names', () => {
    const root = folder();
    mkdirSync(join(root, 'node_modules', 'tool', 'dist', 'bin'), { recursive: true });
    mkdirSync(join(root, 'node_modules', '.bin'));
    writeFileSync(join(root, 'node_modules', 'tool', 'package.json'), JSON.stringify({ name: 'tool', version: '2.3.4', bin: { tool: './dist/bin/tool.js' } }));
    writeFileSync(join(root, 'node_modules', 'tool', 'dist', 'bin', 'tool.js'), '#!/usr/bin/env node\n', { mode: 0o755 });
    symlinkSync('../tool/dist/bin/tool.js', join(root, 'node_modules', '.bin', 'tool'));
    expect(packageVersionOf(join(root, 'node_modules', '.bin', 'tool'))).toBe('tool@2.3.4');
  });

  it('names no package for a script beside a package.json that does not ship it, or a missing file', () => {
    const root = folder();
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'project', version: '1.0.0', bin: { other: './other.js' } }));
    mkdirSync(join(root, 'scripts'));
    writeFileSync(join(root, 'scripts', 'agent.sh'), '#!/bin/sh\n', { mode: 0o755 });
    expect(packageVersionOf(join(root, 'scripts', 'agent.sh'))).toBeUndefined();
    expect(packageVersionOf(join(root, 'absent'))).toBeUndefined();
  });
});
