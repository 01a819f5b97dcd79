import { describe, expect, it } from 'vitest'
import { clientNetwork } from '#app/domain/network.ts'

describe('clientNetwork', () => {
  it('groups IPv4 addresses by /24, IPv4-mapped IPv6 included', () => {
    expect(clientNetwork('203.0.113.10')).toBe('203.0.113.0/24')
    expect(clientNetwork('203.0.113.250')).toBe('203.0.113.0/24')
    expect(clientNetwork('::ffff:203.0.113.7')).toBe('203.0.113.0/24')
    expect(clientNetwork('203.0.114.10')).toBe('203.0.114.0/24')
  })

  it('groups IPv6 addresses by /64', () => {
    expect(clientNetwork('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64')
    expect(clientNetwork('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64')
    expect(clientNetwork('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64')
  })

  it('keeps anything that is not an address as it is', () => {
    expect(clientNetwork('unknown')).toBe('unknown')
  })
})
