// A link's IP rules: the deny list wins; a non-empty allow list admits only what it lists. Rules
// are addresses or networks of either family (the contract's ipRuleProblem checked them). An
// IPv4 visitor seen through an IPv6 socket (`::ffff:203.0.113.7`) is judged as the IPv4 address.
import { BlockList, isIPv4, isIPv6 } from 'node:net';

function blockList(rules: readonly string[]): BlockList {
  const list = new BlockList();
  for (const rule of rules) {
    const [written = '', length] = rule.split('/');
    // An IPv4-mapped rule (`::ffff:203.0.113.7`, `::ffff:10.0.0.0/104`) means its IPv4 address or
    // network, which is how visitors are judged.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(written)?.[1];
    const mappedLength = length === undefined ? undefined : Number(length) - 96;
    if (mapped && (mappedLength === undefined || mappedLength >= 0)) {
      if (mappedLength === undefined) list.addAddress(mapped, 'ipv4');
      else list.addSubnet(mapped, mappedLength, 'ipv4');
      continue;
    }
    const family = isIPv4(written) ? 'ipv4' : 'ipv6';
    if (length === undefined) list.addAddress(written, family);
    else list.addSubnet(written, Number(length), family);
  }
  return list;
}

/** The visitor's address as the rules see it (IPv4-mapped IPv6 as IPv4), or undefined when it is none. */
export function visitorAddress(ip: string): { address: string; family: 'ipv4' | 'ipv6' } | undefined {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const address = mapped?.[1] ?? ip;
  if (isIPv4(address)) return { address, family: 'ipv4' };
  if (isIPv6(address)) return { address, family: 'ipv6' };
  return undefined;
}

export function ipAllowed(ip: string, allow: readonly string[], deny: readonly string[]): boolean {
  if (allow.length === 0 && deny.length === 0) return true;
  const visitor = visitorAddress(ip);
  // An address the rules cannot judge is refused whenever there are rules.
  if (!visitor) return false;
  if (deny.length > 0 && blockList(deny).check(visitor.address, visitor.family)) return false;
  return allow.length === 0 || blockList(allow).check(visitor.address, visitor.family);
}
