import ipaddr from 'ipaddr.js'

const PREFIX_BITS = { ipv4: 24, ipv6: 64 } as const

/**
 * The network a client address belongs to, for limits a person could dodge by changing address:
 * the IPv4 /24 or the IPv6 /64 (what one subscriber or one office usually holds). An IPv4-mapped
 * IPv6 address counts as IPv4; something that is not an address stands for itself.
 */
export function clientNetwork(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip
  const address = ipaddr.process(ip)
  const bits = PREFIX_BITS[address.kind()]
  const network = address.kind() === 'ipv4' ? ipaddr.IPv4.networkAddressFromCIDR(`${address}/${bits}`) : ipaddr.IPv6.networkAddressFromCIDR(`${address}/${bits}`)
  return `${network.toString()}/${bits}`
}
