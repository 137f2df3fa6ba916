import { describe, expect, it } from 'vitest';
import { WaveError } from '../../src/core/errors/errors.js';
import { parseEgressPattern } from '../../src/config/schema/egress-pattern.js';
import { EgressPolicy, addressClass } from '../../src/sandbox/egress/egress-policy.js';

describe('parseEgressPattern', () => {
  it.each([
    ['api.example.com', { host: 'api.example.com', wildcard: false }],
    ['*.example.com', { host: 'example.com', wildcard: true }],
    ['api.example.com:8443', { host: 'api.example.com', wildcard: false, port: 8443 }],
    ['*.Example.COM.:443', { host: 'example.com', wildcard: true, port: 443 }],
    ['127.0.0.1:8080', { host: '127.0.0.1', wildcard: false, port: 8080 }],
    ['[::1]:8080', { host: '::1', wildcard: false, port: 8080 }],
    ['[0:0::1]', { host: '::1', wildcard: false }],
    ['fe80::1', { host: 'fe80::1', wildcard: false }],
  ])('parses %s', (entry, expected) => {
    expect(parseEgressPattern(entry)).toEqual({ ...expected, raw: entry });
  });

  it.each([
    '',
    '  ',
    'https://api.example.com',
    'api.example.com/v1',
    'example.com:0',
    'example.com:65536',
    'example.com:http',
    'example.com:',
    '*',
    '*.',
    'a.*.example.com',
    '*.*.example.com',
    'api*.example.com',
    '**.example.com',
    '.example.com',
    'exa mple.com',
    '[example.com]:80',
    '[::1',
    '::1:80:x',
    '*.[::1]',
  ])('rejects %j naming the entry', (entry) => {
    const error = (() => {
      try {
        parseEgressPattern(entry);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(WaveError);
    expect((error as WaveError).code).toBe('manifest_invalid');
    expect((error as WaveError).message).toContain(`"${entry}"`);
    expect((error as WaveError).hint).toMatch(/^[A-Z]/);
  });
});

describe('EgressPolicy', () => {
  const policy = new EgressPolicy(['api.example.com', '*.wild.test', 'pinned.test:8443', '*.ports.test:443', '[::1]:9000']);

  it('keeps the entries as written', () => {
    expect(policy.entries).toEqual(['api.example.com', '*.wild.test', 'pinned.test:8443', '*.ports.test:443', '[::1]:9000']);
  });

  it('matches an exact host on any port, case-insensitively and ignoring a trailing dot', () => {
    for (const host of ['api.example.com', 'API.Example.com', 'api.example.com.']) {
      expect(policy.match(host, 443)?.raw).toBe('api.example.com');
      expect(policy.match(host, 8080)?.raw).toBe('api.example.com');
    }
    expect(policy.match('example.com', 443)).toBeUndefined();
    expect(policy.match('x.api.example.com', 443)).toBeUndefined();
  });

  it('matches a wildcard at any depth but not the bare domain', () => {
    expect(policy.match('a.wild.test', 80)?.raw).toBe('*.wild.test');
    expect(policy.match('a.b.c.wild.test', 80)?.raw).toBe('*.wild.test');
    expect(policy.match('wild.test', 80)).toBeUndefined();
    expect(policy.match('notwild.test', 80)).toBeUndefined();
  });

  it('honours a port on exact and wildcard entries', () => {
    expect(policy.match('pinned.test', 8443)?.raw).toBe('pinned.test:8443');
    expect(policy.match('pinned.test', 443)).toBeUndefined();
    expect(policy.match('x.ports.test', 443)?.raw).toBe('*.ports.test:443');
    expect(policy.match('x.ports.test', 80)).toBeUndefined();
    expect(policy.match('[::1]', 9000)?.raw).toBe('[::1]:9000');
    expect(policy.match('0:0::1', 9000)?.raw).toBe('[::1]:9000');
    expect(policy.match('::1', 9001)).toBeUndefined();
  });

  it('lists exactly only hosts named without a wildcard', () => {
    expect(policy.listsExactly('api.example.com', 443)).toBe(true);
    expect(policy.listsExactly('pinned.test', 8443)).toBe(true);
    expect(policy.listsExactly('pinned.test', 443)).toBe(false);
    expect(policy.listsExactly('a.wild.test', 443)).toBe(false);
    expect(new EgressPolicy(['*.wild.test', 'a.wild.test']).listsExactly('a.wild.test', 443)).toBe(true);
  });

  it('allows nothing when empty and throws the WaveError for a bad entry', () => {
    expect(new EgressPolicy([]).match('api.example.com', 443)).toBeUndefined();
    expect(() => new EgressPolicy(['ok.test', 'https://bad.test'])).toThrow(/"https:\/\/bad\.test"/);
  });
});

describe('addressClass', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['::ffff:93.184.216.34', 'public'],
    ['93.184.216.34', 'public'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
    ['2606:4700::1111', 'public'],
  ])('%s is %s', (address, kind) => {
    expect(addressClass(address)).toBe(kind);
  });

  it('refuses what is not an IP address', () => {
    expect(() => addressClass('example.com')).toThrow(TypeError);
  });
});
