import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { AppError } from '../../common/errors/app-error.js';
import type { Mode } from '../../common/context/principal.js';
import type { ErrorDefinition } from '../../common/errors/error-catalog.js';
import { EventErrors } from './events.errors.js';

function blockList(v4: Array<[string, number]>, v6: Array<[string, number]>): BlockList {
  const list = new BlockList();
  for (const [net, prefix] of v4) list.addSubnet(net, prefix, 'ipv4');
  for (const [net, prefix] of v6) list.addSubnet(net, prefix, 'ipv6');
  return list;
}

const LOOPBACK = blockList([['127.0.0.0', 8]], [['::1', 128]]);
const PRIVATE = blockList(
  [
    ['10.0.0.0', 8],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
    ['100.64.0.0', 10],
  ],
  [['fc00::', 7]],
);
/** Link-local, where cloud metadata services answer (169.254.169.254, fd00:ec2::254 is unique-local). */
const LINK_LOCAL = blockList([['169.254.0.0', 16]], [['fe80::', 10]]);
const RESERVED = blockList(
  [
    ['0.0.0.0', 8],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ],
  [
    ['::', 128],
    ['ff00::', 8],
    ['2001:db8::', 32],
    ['100::', 64],
  ],
);
/** Host names of cloud metadata services, refused before any lookup. */
const METADATA_HOSTS = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data']);

/**
 * Which addresses may receive webhooks: `public` ones only (live mode always; test mode in a
 * deployed service, so test keys cannot reach its internal network), or also `private` networks,
 * loopback and reserved ranges (test mode where the operator allows it: WEBHOOK_ALLOW_PRIVATE_TARGETS).
 * Link-local and metadata addresses are refused under both.
 */
export type AddressPolicy = 'public' | 'private';

/** The policy for endpoints of `mode`, given the operator's WEBHOOK_ALLOW_PRIVATE_TARGETS. */
export const addressPolicy = (mode: Mode, allowPrivateTargets: boolean): AddressPolicy =>
  mode === 'test' && allowPrivateTargets ? 'private' : 'public';

/** Why `address` may not receive webhooks under `policy`, as the catalog error to answer; null when it may. */
export function addressRefusal(address: string, policy: AddressPolicy): ErrorDefinition | null {
  let ip = address;
  let family: 'ipv4' | 'ipv6' = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
  // An IPv4-mapped IPv6 address (::ffff:10.0.0.1) is judged as the IPv4 address it carries.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) {
    ip = mapped[1];
    family = 'ipv4';
  }
  if (LINK_LOCAL.check(ip, family)) return EventErrors.E5105;
  if (policy === 'private') return null;
  if (LOOPBACK.check(ip, family)) return EventErrors.E5103;
  if (PRIVATE.check(ip, family)) return EventErrors.E5104;
  if (RESERVED.check(ip, family)) return EventErrors.E5106;
  return null;
}

/**
 * Whether the receiver's answer may be kept with the attempt: only from a public address, so the
 * attempt log never reads back what an internal service answered.
 */
export const keepsExcerpt = (address: string | undefined): boolean =>
  address !== undefined && isIP(address) !== 0 && addressRefusal(address, 'public') === null;

const refused = (definition: ErrorDefinition, url: string, detail: string) =>
  new AppError(definition, `${definition.message} "${url}" ${detail}.`);

/** The URL parsed and checked for shape and scheme (no DNS): E5101, E5102, E5103, E5105. */
export function parseWebhookUrl(raw: string, mode: Mode, policy: AddressPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError(EventErrors.E5101, `"${raw.slice(0, 100)}" is not an absolute URL.`);
  }
  if (
    raw.length > 2048 ||
    !['http:', 'https:'].includes(url.protocol) ||
    !url.hostname ||
    url.username ||
    url.password
  ) {
    throw new AppError(
      EventErrors.E5101,
      `"${raw.slice(0, 100)}" is not an http(s) URL with a host and no credentials.`,
    );
  }
  if (mode === 'live' && url.protocol !== 'https:') throw refused(EventErrors.E5102, raw, 'is not https');
  const host = hostOf(url);
  if (METADATA_HOSTS.has(host)) throw refused(EventErrors.E5105, raw, 'names a metadata service');
  if (policy === 'public' && (host === 'localhost' || host.endsWith('.localhost'))) {
    throw refused(EventErrors.E5103, raw, 'names localhost');
  }
  return url;
}

/** The URL's host without IPv6 brackets or a trailing dot, lower-cased. */
export function hostOf(url: URL): string {
  return url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

/**
 * A deployed service (public targets only) runs under deploy/kubernetes' NetworkPolicy, which lets
 * out TCP 443 and 80 only: another port would time out on every delivery until the endpoint is
 * disabled, so it is refused at registration (E5110), after the address checks (a loopback or
 * private target is refused for what it is). `URL` drops a scheme's default port: port is '' then.
 */
function refuseNonDefaultPort(url: URL, raw: string, policy: AddressPolicy): URL {
  if (policy === 'public' && url.port !== '') throw refused(EventErrors.E5110, raw, `names port ${url.port}`);
  return url;
}

/**
 * Checks the URL and every address its host resolves to (E5101-E5107), then its port (E5110): at creation and update,
 * and again on every delivery (the sender's `lookup` runs `addressRefusal` on what it connects to).
 */
export async function assertWebhookUrl(raw: string, mode: Mode, policy: AddressPolicy): Promise<URL> {
  const url = parseWebhookUrl(raw, mode, policy);
  const host = hostOf(url);
  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) {
      // A test endpoint may name a host that resolves later; every delivery checks what it connects to.
      if (mode === 'test') return refuseNonDefaultPort(url, raw, policy);
      throw refused(EventErrors.E5107, raw, `: ${host} does not resolve`);
    }
  }
  for (const address of addresses) {
    const refusal = addressRefusal(address, policy);
    if (refusal) throw refused(refusal, raw, isIP(host) ? 'is such an address' : `resolves to ${address}`);
  }
  return refuseNonDefaultPort(url, raw, policy);
}
