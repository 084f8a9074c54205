import { randomUUID } from 'node:crypto';
import net from 'node:net';

/**
 * One id per page request, carried from the web tier to the api and into the jobs it sends, so every log line a
 * request causes can be found by one search. Both tiers answer it in this header.
 */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * What an id taken from a header may look like: a UUID, or what a proxy makes (nginx's hex, Heroku's and Envoy's
 * UUIDs, Amazon's `Root=1-…`). Anything else is replaced: it ends up in every log line of the request.
 */
const ACCEPTED_ID = /^[\w.:=+/-]{8,128}$/;

/** The address ranges TRUSTED_PROXIES may name by word (the names proxy-addr gives them, as express and Fastify do). */
const NAMED_RANGES: Record<string, [string, number][]> = {
  loopback: [
    ['127.0.0.0', 8],
    ['::1', 128],
  ],
  linklocal: [
    ['169.254.0.0', 16],
    ['fe80::', 10],
  ],
  uniquelocal: [
    ['10.0.0.0', 8],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
    ['fc00::', 7],
  ],
};

/**
 * Whether a peer address is one of TRUSTED_PROXIES (addresses, CIDR ranges, or the names above): the same list the
 * tiers believe X-Forwarded-For from. An IPv4 address written as IPv6 (`::ffff:10.0.0.5`) is read as IPv4.
 */
export function trustedPeers(proxies: string[]): (address: string | undefined) => boolean {
  const trusted = new net.BlockList();
  const add = (address: string, bits?: number) => {
    const family = net.isIPv6(address) ? 'ipv6' : 'ipv4';
    if (bits === undefined) trusted.addAddress(address, family);
    else trusted.addSubnet(address, bits, family);
  };
  for (const proxy of proxies) {
    if (NAMED_RANGES[proxy]) NAMED_RANGES[proxy].forEach(([address, bits]) => add(address, bits));
    else {
      const [address, bits] = proxy.split('/');
      add(address, bits === undefined ? undefined : Number(bits));
    }
  }
  return (address) => {
    if (!address) return false;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return trusted.check(mapped[1], 'ipv4');
    return net.isIP(address) ? trusted.check(address, net.isIPv6(address) ? 'ipv6' : 'ipv4') : false;
  };
}

/**
 * The id of a request: the one its caller sent, when the caller is trusted to name it and the id looks like one;
 * otherwise a new one.
 */
export function requestIdFor(sent: string | string[] | undefined, callerTrusted: () => boolean): string {
  if (typeof sent === 'string' && ACCEPTED_ID.test(sent) && callerTrusted()) return sent;
  return randomUUID();
}
