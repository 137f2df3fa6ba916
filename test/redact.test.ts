import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor } from '../src/redact.js';

const redactor = new Redactor([]);

describe('Redactor token shapes', () => {
  it.each([
    ['OpenAI key', 'sk-abcdefghijklmnopqrstuvwxyz0123456789ABCD', REDACTED],
    ['Anthropic key', 'sk-ant-api03-AbC_dEf-0123456789abcdefghijklmnop-QRS', REDACTED],
    ['OpenAI project key', 'sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34', REDACTED],
    ['GitHub personal token', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789', REDACTED],
    ['GitHub OAuth token', 'gho_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', REDACTED],
    ['GitHub user-to-server token', 'ghu_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', REDACTED],
    ['GitHub server token', 'ghs_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', REDACTED],
    ['GitHub refresh token', 'ghr_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', REDACTED],
    ['GitHub fine-grained token', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEF', REDACTED],
    ['AWS access key id', 'AKIAIOSFODNN7EXAMPLE', REDACTED],
    ['AWS temporary key id', 'ASIAIOSFODNN7EXAMPLE', REDACTED],
    ['AWS secret (env)', 'AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', `AWS_SECRET_ACCESS_KEY=${REDACTED}`],
    ['AWS secret (ini)', 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', `aws_secret_access_key = ${REDACTED}`],
    ['AWS secret (JSON)', '"aws_secret_access_key": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"', `"aws_secret_access_key": "${REDACTED}"`],
    ['Bearer header', 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig-nat_ure', `Authorization: Bearer ${REDACTED}`],
    ['Slack bot token', 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx', REDACTED],
    ['Slack user token', 'xoxp-123456789012-abcdef', REDACTED],
    ['Slack app token', 'xoxa-2-123456789012-abcdef', REDACTED],
  ])('replaces a %s', (_name, token, expected) => {
    expect(redactor.redact(`before ${token} after`)).toBe(`before ${expected} after`);
    expect(redactor.redact(token)).toBe(expected);
  });

  it('leaves ordinary words that merely look alike', () => {
    const text = 'task-runner-configuration-file disk-usage-report-generator sk-learn ghp_short AKIAshort Bearer abc xoxb-1 AKIAIOSFODNN7EXAMPLEXX';
    expect(redactor.redact(text)).toBe(text);
  });

  it('leaves multibyte text untouched', () => {
    const text = 'héllo wörld — 日本語のテキスト 🎉 Ωμέγα\n\tдобрый день';
    expect(redactor.redact(text)).toBe(text);
  });
});

describe('Redactor secret values', () => {
  it('replaces each given value wherever it appears, longest first', () => {
    const secrets = new Redactor(['hunter2-pass', 'hunter2-password-long', 'pässwörd-ünï']);
    expect(secrets.redact('a=hunter2-password-long b=hunter2-pass c=xpässwörd-ünïx')).toBe(`a=${REDACTED} b=${REDACTED} c=x${REDACTED}x`);
  });

  it('ignores values shorter than 8 characters and treats regex characters literally', () => {
    const secrets = new Redactor(['abcdefg', '', 'a.*b[c]d', '(x)+?{2}']);
    expect(secrets.redact('abcdefg aXXb[c]d a.*b[c]d (x)+?{2} (x)')).toBe(`abcdefg aXXb[c]d ${REDACTED} ${REDACTED} (x)`);
  });

  it('redacts a multi-line value line by line', () => {
    const pem = '-----BEGIN KEY-----\nMIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu\n-----END KEY-----';
    const secrets = new Redactor([pem]);
    expect(secrets.redact(`key:\n${pem}\n`)).toBe(`key:\n${REDACTED}\n${REDACTED}\n${REDACTED}\n`);
  });
});
