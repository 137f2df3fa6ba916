import { describe, expect, it } from 'vitest';
import { codexSettings } from '../../src/adapters/codex/invocation.js';
import { codexPermissionSettings } from '../../src/adapters/codex/permissions.js';
import type { AdapterRunConfig } from '../../src/adapters/types.js';

describe("Codex's switches for a persona's permissions", () => {
  it('allowed_tools ["*"] or none: nothing switched off', () => {
    expect(codexPermissionSettings(['*'], [])).toEqual([]);
    expect(codexPermissionSettings([], [])).toEqual([]);
  });

  it('deny ["*"]: the shell, file writes (read-only sandbox) and web search all off', () => {
    expect(codexPermissionSettings(['*'], ['*'])).toEqual([
      ['features.shell_tool', false],
      ['features.unified_exec', false],
      ['sandbox_mode', 'read-only'],
      ['web_search', 'disabled'],
    ]);
  });

  it('a tool denied, or left out of an allow list, switches its part off', () => {
    expect(codexPermissionSettings([], ['Bash'])).toEqual([
      ['features.shell_tool', false],
      ['features.unified_exec', false],
    ]);
    expect(codexPermissionSettings(['Read', 'Bash'], [])).toEqual([
      ['sandbox_mode', 'read-only'],
      ['web_search', 'disabled'],
    ]);
    expect(codexPermissionSettings(['Write', 'WebSearch'], [])).toEqual([
      ['features.shell_tool', false],
      ['features.unified_exec', false],
    ]);
  });

  it("replaces Codex's full access by the read-only sandbox, once, in the settings it is given", () => {
    const config = {
      adapter: { name: 'codex', type: 'codex', env: {}, isolated: false },
      persona: { name: 'p', systemPrompt: '', allowedTools: ['Read', 'Bash'], deniedTools: [], allowedDomains: [], skills: [] },
    } as unknown as AdapterRunConfig;
    const settings = codexSettings(config);
    expect(settings.filter(([key]) => key === 'sandbox_mode')).toEqual([['sandbox_mode', '"read-only"']]);
    expect(settings).toContainEqual(['web_search', '"disabled"']);
  });
});
