import dns from 'node:dns';
import https from 'node:https';
import net from 'node:net';

/**
 * Where the api may send a push. A push subscription's endpoint comes from the fan's browser, that is from whoever
 * calls the api: left unchecked, each new post would have the api open TLS connections to any address a fan named
 * (loopback, the cloud's metadata service, the private network). Browsers' push services are public hosts reached
 * on 443 by name, so only such endpoints are taken: an IP literal, another port, or a name that resolves to an
 * address that is not public is refused. The name is resolved again by every connection a push opens (the lookup
 * of the agent below), so a name that resolves elsewhere since the fan registered it does not reach in either.
 */

/** The addresses a host name resolves to (dns.lookup with all: true); tests stand in for DNS with their own. */
export type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;

export const systemResolve: Resolve = (host) => dns.promises.lookup(host, { all: true, verbatim: true });

export interface PushEndpointPolicy {
  /** Host names (or IP literals) taken although they are not public: PUSH_ALLOW_HOSTS, for tests only. */
  allowHosts: string[];
  resolve: Resolve;
}

/** A push the api will not send: the endpoint's host is not, or is no longer, a public push service. */
export class RefusedPushEndpoint extends Error {}

const IPV4_NOT_PUBLIC: [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services live here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
];

const ipv4NotPublic = new net.BlockList();
for (const [prefix, bits] of IPV4_NOT_PUBLIC) ipv4NotPublic.addSubnet(prefix, bits, 'ipv4');

/** Only 2000::/3 is global unicast; within it these are not reachable on the internet (or hide another address). */
const ipv6Global = new net.BlockList();
ipv6Global.addSubnet('2000::', 3, 'ipv6');
const ipv6NotPublic = new net.BlockList();
for (const [prefix, bits] of [
  ['2001::', 23], // IETF protocol assignments (Teredo among them)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: an IPv4 address inside
  ['3fff::', 20], // documentation
] as const)
  ipv6NotPublic.addSubnet(prefix, bits, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (an IPv4 tail read as two groups). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail[1].split('.').map(Number);
    text = `${text.slice(0, -tail[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::');
  const part = (s: string | undefined) => (s ? s.split(':').map((group) => parseInt(group, 16)) : []);
  const left = part(head);
  const right = part(rest);
  return rest === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
}

/** The IPv4 address an IPv6 address carries (IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible, NAT64), if any. */
function embeddedIpv4(groups: number[]): string | undefined {
  const v4 = () => [groups[6] >> 8, groups[6] & 255, groups[7] >> 8, groups[7] & 255].join('.');
  const zeros = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  if (zeros(0, 5) && groups[5] === 0xffff) return v4();
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) return v4();
  return undefined;
}

/** Whether an address is one the internet reaches: not loopback, private, link-local, multicast or reserved. */
export function isPublicAddress(input: string): boolean {
  // A zone (fe80::1%eth0) only ever names a link-local address.
  if (input.includes('%')) return false;
  const address = input.replace(/^\[(.*)\]$/, '$1');
  const version = net.isIP(address);
  if (version === 4) return !ipv4NotPublic.check(address, 'ipv4');
  if (version !== 6) return false;
  const inside = embeddedIpv4(ipv6Groups(address));
  if (inside) return isPublicAddress(inside);
  return ipv6Global.check(address, 'ipv6') && !ipv6NotPublic.check(address, 'ipv6');
}

const hostOf = (url: URL) => url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');

/**
 * Why the api will not push to this endpoint (an https URL, already checked as such), or null when it will. Asked
 * when a fan registers a subscription: the answer is the 422's message.
 */
export async function pushEndpointProblem(endpoint: string, policy: PushEndpointPolicy): Promise<string | null> {
  const url = new URL(endpoint);
  const host = hostOf(url);
  if (policy.allowHosts.includes(host)) return null;
  if (net.isIP(host)) return 'endpoint must name a push service by its host name, not by an IP address.';
  if (url.port && url.port !== '443') return 'endpoint must be a push service on the standard https port (443).';
  let addresses: { address: string }[];
  try {
    addresses = await policy.resolve(host);
  } catch {
    addresses = [];
  }
  if (!addresses.length) return `endpoint's host ${host} could not be found.`;
  if (addresses.some((entry) => !isPublicAddress(entry.address)))
    return `endpoint must be a public push service: ${host} resolves to a loopback, private or otherwise non-public address.`;
  return null;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * The agent every push goes through: TLS as the global agent has it (the certificates it trusts), with a lookup
 * that refuses a connection to any address that is not public, the moment the connection is made.
 */
export function guardedPushAgent(policy: PushEndpointPolicy) {
  const lookup = (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    const host = hostname.toLowerCase();
    policy.resolve(host).then(
      (addresses) => {
        if (!addresses.length) return callback(Object.assign(new Error(`${host} could not be found`), { code: 'ENOTFOUND' }), []);
        if (!policy.allowHosts.includes(host) && addresses.some((entry) => !isPublicAddress(entry.address)))
          return callback(new RefusedPushEndpoint(`${host} resolves to a non-public address`), []);
        const wanted =
          options.family === 4 || options.family === 6 ? addresses.filter((entry) => entry.family === options.family) : addresses;
        const list = wanted.length ? wanted : addresses;
        if (options.all) callback(null, list);
        else callback(null, list[0].address, list[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
  return new https.Agent({ ...https.globalAgent.options, keepAlive: true, lookup: lookup as never });
}

/** Checked before each push, without a connection: an endpoint that is an IP literal goes nowhere unless allowed. */
export function refuseLiteral(endpoint: string, policy: PushEndpointPolicy) {
  const host = hostOf(new URL(endpoint));
  if (net.isIP(host) && !policy.allowHosts.includes(host)) throw new RefusedPushEndpoint(`${host} is an IP address`);
}
