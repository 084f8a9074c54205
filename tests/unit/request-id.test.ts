import { describe, expect, it } from 'vitest';
import { requestIdFor, trustedPeers } from '#contract/request-id';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('trustedPeers', () => {
  it('trusts loopback by name, in both families and as a mapped IPv4 address', () => {
    const trusted = trustedPeers(['loopback']);
    for (const address of ['127.0.0.1', '127.5.0.9', '::1', '::ffff:127.0.0.1']) expect(trusted(address), address).toBe(true);
    for (const address of ['10.0.0.1', '::2', '::ffff:10.0.0.1', 'fe80::1', undefined, '', 'localhost'])
      expect(trusted(address), address).toBe(false);
  });

  it('trusts the addresses and ranges listed, and nothing else', () => {
    const trusted = trustedPeers(['10.0.0.5', '10.1.0.0/16', 'fd00::/8', 'uniquelocal']);
    expect(trusted('10.0.0.5')).toBe(true);
    expect(trusted('10.1.200.3')).toBe(true);
    expect(trusted('fd12::1')).toBe(true);
    expect(trusted('192.168.1.1')).toBe(true);
    expect(trusted('172.31.0.1')).toBe(true);
    expect(trusted('172.32.0.1')).toBe(false);
    expect(trusted('127.0.0.1')).toBe(false);
    expect(trusted('203.0.113.9')).toBe(false);
    expect(trustedPeers(['linklocal'])('169.254.3.4')).toBe(true);
  });
});

describe('requestIdFor', () => {
  it("keeps a trusted caller's id when it looks like one", () => {
    for (const id of ['3f2b0c9e-1f6a-4c1e-9a53-0f7f5b1d2c3a', 'a1b2c3d4e5f60718', 'Root=1-67891233-abcdef012345678912345678']) {
      expect(requestIdFor(id, () => true)).toBe(id);
    }
  });

  it('makes a new one for an untrusted caller, an odd id, or none, without asking who called when there is nothing to keep', () => {
    expect(requestIdFor('a1b2c3d4e5f60718', () => false)).toMatch(UUID);
    const never = () => {
      throw new Error('asked');
    };
    for (const sent of [undefined, 'short', 'has spaces in it', '{"json":true}', 'x'.repeat(129), ['a1b2c3d4e5f60718', 'b']]) {
      expect(requestIdFor(sent, never)).toMatch(UUID);
    }
  });
});
