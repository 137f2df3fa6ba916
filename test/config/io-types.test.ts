import { describe, expect, it } from 'vitest';
import { IO_TYPES, inputSchemaTypeProblem, inputTypeProblem, inputTypeShape } from '../../src/config/schema/io-types.js';

describe('typed inputs', () => {
  it.each([
    'acme/app 42',
    'acme/app#42',
    'acme/app  #42',
    '#42',
    '42',
    '  acme/app 42\n',
    'https://github.com/acme/app/issues/42',
    'https://gitlab.example.com/group/sub/app/-/issues/3',
    'https://codeberg.org/acme/app/issues/9#issuecomment-1',
    '{"forge":"github","owner":"acme","repo":"app","number":42}',
    '{"forge":"gitea","owner":"acme","repo":"app","number":1,"url":"https://x/acme/app/issues/1","title":"Bug"}',
  ])('issue_ref accepts %j', (text) => {
    expect(inputTypeProblem('issue_ref', text)).toBeUndefined();
  });

  it.each([
    ['fix the login bug', 'it is none of the accepted forms'],
    ['', 'no input was given'],
    ['acme/app', 'it is none of the accepted forms'],
    ['acme/app 0', 'it is none of the accepted forms'],
    ['https://github.com/acme/app/pull/42', 'it is none of the accepted forms'],
    ['{"forge":"github"', 'it starts like JSON but does not parse'],
    ['{"forge":"github","owner":"acme","repo":"app"}', 'the JSON object lacks `number`'],
    ['{"forge":"svn","owner":"acme","repo":"app","number":1}', '`forge` must be one of github, gitlab, gitea, forgejo, bitbucket, local'],
    ['{"forge":"github","owner":"","repo":"app","number":1}', '`owner` must be non-empty text'],
    ['{"forge":"github","owner":"acme","repo":"app","number":1.5}', '`number` must be a whole number from 1'],
    ['{"forge":"github","owner":"acme","repo":"app","number":1,"branch":"x"}', 'issue_ref has no `branch`'],
  ])('issue_ref refuses %j: %s', (text, why) => {
    expect(inputTypeProblem('issue_ref', text)).toContain(why);
  });

  it.each([
    'https://github.com/acme/app/pull/42',
    'https://gitlab.com/acme/app/-/merge_requests/5',
    'https://gitea.example.com/acme/app/pulls/5',
    'https://bitbucket.org/acme/app/pull-requests/5',
    'acme/app#42',
    'acme/app 42',
    'acme/app/42',
    '#42',
    '42',
    '{"forge":"github","owner":"acme","repo":"app","number":42,"branch":"fix/x"}',
  ])('pr_ref accepts %j', (text) => {
    expect(inputTypeProblem('pr_ref', text)).toBeUndefined();
  });

  it.each([
    ['https://github.com/acme/app/issues/42', 'it is none of the accepted forms'],
    ['{"forge":"github","owner":"acme","repo":"app","number":42}', 'the JSON object lacks `branch`'],
  ])('pr_ref refuses %j: %s', (text, why) => {
    expect(inputTypeProblem('pr_ref', text)).toContain(why);
  });

  it('the registry types without a text form take their JSON object, with its required keys', () => {
    expect(inputTypeProblem('branch_ref', '{"name":"main"}')).toBeUndefined();
    expect(inputTypeProblem('branch_ref', 'main')).toBe('it is none of the accepted forms');
    expect(inputTypeProblem('spec_ref', '{"title":"x"}')).toBe('the JSON object lacks `path`');
    expect(inputTypeProblem('findings_report', '{"items":[],"anything":1}')).toBeUndefined();
    expect(inputTypeProblem('findings_report', '[1]')).toBe('it is JSON but not an object');
  });

  it('a string input takes any text; every other type names its shape', () => {
    expect(inputTypeProblem('string', '')).toBeUndefined();
    expect(inputTypeShape('string')).toBeUndefined();
    for (const type of IO_TYPES.filter((t) => t !== 'string'))
      expect(inputTypeShape(type)).toContain(type === 'issue_ref' ? 'issue reference' : type === 'pr_ref' ? 'pull request' : type);
  });

  it.each([
    ['integer', '42', undefined],
    ['integer', '4.2', 'it is a number with a fraction'],
    ['number', '4.2', undefined],
    ['boolean', 'true', undefined],
    ['object', '{"a":1}', undefined],
    ['object', '[1]', 'it is JSON of type array'],
    ['array', '[1]', undefined],
    ['array', 'one two', 'it is not JSON'],
    ['integer', '', 'no input was given'],
    ['string', 'anything', undefined],
  ] as const)('input.schema.type %s with %j: %s', (type, text, why) => {
    expect(inputSchemaTypeProblem(type, text)).toBe(why);
  });
});
