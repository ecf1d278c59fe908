import ipaddr from "ipaddr.js";

/**
 * The key of a client address for per-address limits and for aggregating
 * refusals in the audit trail (decision 030): an IPv4 address as it is, an
 * IPv6 address by its /64 (one subscriber's network: a home or a server gets
 * a whole /64, so counting single IPv6 addresses would count nothing), an
 * IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) as the IPv4 address. Logs and
 * audit rows of single events keep the full address; only keys are grouped.
 */
export function addressKey(address: string): string {
  const raw = address.trim();
  if (!ipaddr.isValid(raw)) return raw.slice(0, 64) || "unknown";
  const parsed = ipaddr.process(raw);
  if (parsed.kind() === "ipv4") return parsed.toString();
  // The network's four hextets as they are, the host half compressed: 2001:db8:0:1::/64.
  const network = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${network.join(":")}::/64`;
}
