import { describe, expect, it } from 'vitest';
import { parseBrowserActions, renderActionList } from '../../src/core/browser/browser-actions.js';

const problemsOf = (text: string) => {
  const parsed = parseBrowserActions(text);
  return 'problems' in parsed ? parsed.problems.map((p) => [p.offset, p.message]) : [];
};

describe("a browser step's action list", () => {
  it("parses Wave's actions with the keys each takes", () => {
    const text = JSON.stringify([
      { action: 'navigate', url: 'http://127.0.0.1:8080/', wait_for: 'body', timeout_ms: 5000 },
      { action: 'screenshot', format: 'jpeg' },
      { action: 'get_text', selector: 'h1' },
      { action: 'get_html' },
      { action: 'click', selector: '#go' },
      { action: 'type', selector: '#q', value: 'wave' },
    ]);
    const parsed = parseBrowserActions(text);
    expect('actions' in parsed && parsed.actions.map((a) => a.action)).toEqual(['navigate', 'screenshot', 'get_text', 'get_html', 'click', 'type']);
  });

  it('names each wrong entry with where it starts: a missing key, a key its action ignores, an unknown action, a bad value', () => {
    const text =
      '[\n  {"action": "navigate"},\n  {"action": "click", "selector": "#a", "url": "x"},\n  {"action": "scroll"},\n  {"action": "screenshot", "format": "gif", "timeout_ms": -1}\n]';
    const at = (action: string) => text.indexOf(`{"action": "${action}"`);
    expect(problemsOf(text)).toEqual([
      [at('navigate'), 'action 1: navigate requires `url`'],
      [at('click'), 'action 2: click takes no `url`'],
      [at('scroll'), 'action 3: `action` must be one of navigate, screenshot, get_text, get_html, click, type, not "scroll"'],
      [at('screenshot'), 'action 4: `timeout_ms` must be a whole number of milliseconds above 0'],
      [at('screenshot'), 'action 4: `format` must be png or jpeg'],
    ]);
  });

  it('refuses text that is no JSON array of actions, an empty list, and a type action without a value', () => {
    expect(problemsOf('[{"action": "navigate", "url": "x"')[0]?.[1]).toMatch(/^the action list is not valid JSON: /);
    expect(problemsOf('{"action": "screenshot"}')).toEqual([[0, 'the action list must be a JSON array of actions']]);
    expect(problemsOf('[]')).toEqual([[0, 'the action list is empty']]);
    expect(problemsOf('[{"action": "type", "selector": "#q", "value": ""}]')).toEqual([[1, 'action 1: type requires `value`']]);
  });

  it('renders templates inside string values only, so a value with quotes and brackets stays one string', () => {
    const rendered = renderActionList('[{"action": "type", "selector": "#q", "value": "{{ input }}"}]', (text) => text.replace('{{ input }}', '"], [{"action": "click"'));
    expect(JSON.parse(rendered)).toEqual([{ action: 'type', selector: '#q', value: '"], [{"action": "click"' }]);
  });
});
