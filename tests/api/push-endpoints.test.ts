import { describe, expect, it } from 'vitest';
import { isPublicAddress, pushEndpointProblem, type Resolve } from '../../api/notifications/push-endpoint';

/**
 * Which addresses a push may reach (api/notifications/push-endpoint.ts): the internet's, and nothing on this machine,
 * its link or a private network, however the address is written. DNS is stood in for by a map.
 */

describe('push endpoint addresses', () => {
  it('public: global unicast IPv4 and IPv6, and IPv6 that carries a public IPv4', () => {
    for (const address of [
      '93.184.216.34',
      '8.8.8.8',
      '142.250.74.106',
      '2606:2800:220:1:248:1893:25c8:1946',
      '2a00:1450:4001:80b::200a',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
    ])
      expect(isPublicAddress(address), address).toBe(true);
  });

  it('not public: loopback, private, link-local, shared, reserved, multicast, documentation, in IPv4 and IPv6, mapped or not', () => {
    for (const address of [
      '127.0.0.1',
      '127.255.255.254',
      '0.0.0.0',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '192.0.0.170',
      '198.18.0.1',
      '224.0.0.1',
      '255.255.255.255',
      '203.0.113.9',
      '::1',
      '::',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:169.254.169.254',
      '::ffff:a00:1',
      '[::ffff:192.168.0.1]',
      '64:ff9b::a00:1',
      '::127.0.0.1',
      'fe80::1',
      'fe80::1%eth0',
      'fc00::1',
      'fd00:ec2::254',
      'ff02::1',
      '2001:db8::1',
      '2002:7f00:1::1',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      'not an address',
    ])
      expect(isPublicAddress(address), address).toBe(false);
  });

  it('an endpoint is refused when any address of its name is not public, or when its name is not found', async () => {
    const dns: Record<string, string[]> = {
      'fcm.example': ['142.250.74.106'],
      'split.example': ['142.250.74.106', '::ffff:10.0.0.1'],
      'meta.example': ['169.254.169.254'],
    };
    const resolve: Resolve = async (host) => (dns[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    const policy = { allowHosts: [], resolve };
    expect(await pushEndpointProblem('https://fcm.example/fcm/send/abc', policy)).toBeNull();
    expect(await pushEndpointProblem('https://split.example/x', policy)).toMatch(/non-public/);
    expect(await pushEndpointProblem('https://meta.example/x', policy)).toMatch(/non-public/);
    expect(await pushEndpointProblem('https://gone.example/x', policy)).toMatch(/could not be found/);
    expect(await pushEndpointProblem('https://[::ffff:10.0.0.1]/x', policy)).toMatch(/IP address/);
    expect(await pushEndpointProblem('https://0x7f.1/x', policy)).toMatch(/IP address/);
    // Let through only by name, for a stand-in in tests.
    expect(await pushEndpointProblem('https://meta.example/x', { allowHosts: ['meta.example'], resolve })).toBeNull();
  });
});
