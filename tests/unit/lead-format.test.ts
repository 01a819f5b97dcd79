import { describe, expect, test } from 'vitest'
import { formatPhone, formatWebsite } from '#app/domain/lead-format.ts'

describe('formatPhone: one international format everywhere', () => {
  test.each([
    ['+33 2 98 04 12 34', 'FR'],
    ['02 98 04 12 34', 'FR'],
    ['02.98.04.12.34', 'FR'],
    ['0298041234', 'FR'],
    ['+33298041234', null],
    ['0033 2 98 04 12 34', null],
    ['  +33  2 98 04 12 34 ', 'fr'],
  ])('%s (%s) reads +33 2 98 04 12 34', (raw, country) => {
    expect(formatPhone(raw, country)).toEqual({ text: '+33 2 98 04 12 34', href: 'tel:+33298041234' })
  })

  test('mobile and other countries', () => {
    expect(formatPhone('06 12 34 56 78', 'FR')?.text).toBe('+33 6 12 34 56 78')
    expect(formatPhone('030 1234567', 'DE')?.text).toBe('+49 30 1234567')
    expect(formatPhone('020 7946 0018', 'UK')?.text).toBe('+44 20 7946 0018')
  })

  test('a national number without a known country is shown as written', () => {
    expect(formatPhone('02 98 04 12 34', null)).toEqual({ text: '02 98 04 12 34', href: 'tel:0298041234' })
    expect(formatPhone('02 98 04 12 34', 'ZZ')?.text).toBe('02 98 04 12 34')
  })

  test('something that is not a phone number stays readable and is never lost', () => {
    expect(formatPhone('call   us', 'FR')).toEqual({ text: 'call us', href: 'tel:' })
  })

  test('nothing to show', () => {
    expect(formatPhone(null)).toBeNull()
    expect(formatPhone('')).toBeNull()
    expect(formatPhone('   ', 'FR')).toBeNull()
  })
})

describe('formatWebsite: the host is shown, the link keeps the full URL', () => {
  test('host without scheme, www or path', () => {
    expect(formatWebsite('https://www.boulangerie-x.fr/contact?ref=maps')).toEqual({
      host: 'boulangerie-x.fr',
      href: 'https://www.boulangerie-x.fr/contact?ref=maps',
    })
    expect(formatWebsite('http://boulangerie-x.fr/')).toEqual({ host: 'boulangerie-x.fr', href: 'http://boulangerie-x.fr/' })
    expect(formatWebsite('HTTPS://Shop.Example.COM')?.host).toBe('shop.example.com')
  })

  test('an address stored without a scheme still links', () => {
    expect(formatWebsite('boulangerie-x.fr/menu')).toEqual({ host: 'boulangerie-x.fr', href: 'https://boulangerie-x.fr/menu' })
  })

  test('a demo site on a port keeps its hostname only', () => {
    expect(formatWebsite('http://127.0.0.1:4312/sites/le-fournil')?.host).toBe('127.0.0.1')
  })

  test('only http(s) becomes a link', () => {
    expect(formatWebsite('javascript:alert(1)')).toEqual({ host: 'javascript:alert(1)', href: null })
    expect(formatWebsite('ftp://files.example.com')).toEqual({ host: 'ftp://files.example.com', href: null })
    expect(formatWebsite('http://exa mple.com')).toEqual({ host: 'http://exa mple.com', href: null })
  })

  test('nothing to show', () => {
    expect(formatWebsite(null)).toBeNull()
    expect(formatWebsite('  ')).toBeNull()
  })
})
