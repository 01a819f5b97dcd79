import { describe, expect, it } from 'vitest'
import { extractFindings } from '#app/.server/enrichment/findings.ts'
import { parsePage } from '#app/.server/enrichment/html.ts'
import { normalizePhone, phoneTypeOf } from '#app/.server/enrichment/phones.ts'
import { formatOtherPhones, listPhones, mainPhoneType, otherMobile } from '#app/domain/phone-sources.ts'

describe('phone line types', () => {
  it.each([
    ['+33 6 12 34 56 78', 'mobile'],
    ['+33 2 98 44 12 34', 'landline'],
    ['+33 800 12 34 56', 'toll_free'],
    ['+33 9 70 12 34 56', 'voip'],
    ['+49 171 2345678', 'mobile'],
    ['+39 347 123 4567', 'mobile'],
    ['+1 650 253 0000', 'other'],
    ['not a number', 'other'],
  ])('%s is %s', (number, type) => {
    expect(phoneTypeOf(number)).toBe(type)
  })

  it('never takes a form or template sample number', () => {
    for (const sample of ['06 00 00 00 00', '01 23 45 67 89', '07 77 77 77 77', '+33 1 23 45 67 89']) expect(normalizePhone(sample, 'FR'), sample).toBeNull()
    expect(normalizePhone('06 71 23 45 89', 'FR')).toBe('+33 6 71 23 45 89')
  })
})

describe('every business phone of a site, with its page', () => {
  const page = (url: string, html: string, kind: 'home' | 'contact' | 'legal' = 'home') => ({ kind, url, html, parsed: parsePage(html, url), headers: {} })

  it('keeps each number once with the page it was first found on; host, web designer and placeholder numbers left out', () => {
    const found = extractFindings(
      [
        page('https://s.fr/', '<p>Accueil</p><a href="tel:+33241876543">Appeler</a>'),
        page(
          'https://s.fr/contact',
          `<p>Tél. 02 41 87 65 43 – Portable 06 71 23 45 89</p><form><input type="tel" placeholder="06 00 00 00 00" value="06 11 11 11 11"></form>
           <p>Exemple : 01 23 45 67 89</p>`,
          'contact',
        ),
        page('https://s.fr/mentions-legales', '<h2>Hébergement</h2><p>OVH SAS, Roubaix – 09 72 10 10 07</p><p>Site réalisé par Pixel Anjou – 02 41 00 11 22</p>', 'legal'),
      ],
      { country: 'FR', robotsText: '' },
    )
    expect(found.phones).toEqual(['+33 2 41 87 65 43', '+33 6 71 23 45 89'])
    expect(found.phonePages).toEqual({ '+33 2 41 87 65 43': 'https://s.fr/', '+33 6 71 23 45 89': 'https://s.fr/contact' })
  })
})

describe('stored phone sources as the file reads them', () => {
  const sources = {
    '+33 1 44 55 66 77': { type: 'landline', page: 'https://s.fr/contact', rank: 2 },
    '+33 2 41 87 65 43': { type: 'landline', page: null, rank: 0 },
    '+33 6 71 23 45 89': { type: 'mobile', page: 'https://s.fr/contact', rank: 1 },
    junk: 'x',
  }

  it('lists the numbers main first, and formats the others with their types', () => {
    expect(listPhones(sources).map((p) => p.number)).toEqual(['+33 2 41 87 65 43', '+33 6 71 23 45 89', '+33 1 44 55 66 77'])
    expect(mainPhoneType('+33 2 41 87 65 43', sources)).toBe('landline')
    expect(formatOtherPhones('+33241876543', sources, 'en')).toBe('mobile: +33 6 71 23 45 89; landline: +33 1 44 55 66 77')
    expect(formatOtherPhones('+33241876543', sources, 'fr')).toBe('mobile: +33 6 71 23 45 89; fixe: +33 1 44 55 66 77')
    expect(otherMobile('+33 2 41 87 65 43', sources)).toBe('+33 6 71 23 45 89')
  })

  it('knows the main number by its rank when leads.phone is written another way (a source national format)', () => {
    expect(mainPhoneType('02 41 87 65 43', sources)).toBe('landline')
    expect(formatOtherPhones('02 41 87 65 43', sources, 'en')).toBe('mobile: +33 6 71 23 45 89; landline: +33 1 44 55 66 77')
    // No main number: nothing is "the main one", every listed number is another.
    expect(mainPhoneType(null, sources)).toBeNull()
  })

  it('reads nothing from leads found before phone sources existed', () => {
    expect(mainPhoneType('+33 2 41 87 65 43', {})).toBeNull()
    expect(formatOtherPhones('+33 2 41 87 65 43', null, 'fr')).toBeNull()
    expect(otherMobile(null, undefined)).toBeNull()
  })
})
