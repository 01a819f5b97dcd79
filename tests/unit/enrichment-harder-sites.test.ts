// Contacts on harder real sites (issue 28, item 12): Belgian, Swiss and Québec numbers read in their own country,
// agency / host blocks under any heading, mailto display names, unlinked quote / legal / credits pages, "SIRET
// (siège)" labels, old LinkedIn /pub/ links, FlexSlider and Publii.
import { describe, expect, it } from 'vitest'
import { emailsFromMailto } from '#app/.server/enrichment/emails.ts'
import { type ExtractionPage, extractFindings } from '#app/.server/enrichment/findings.ts'
import { parsePage } from '#app/.server/enrichment/html.ts'
import { commonPathCandidates, missingKinds, rankCandidates, scoreLink } from '#app/.server/enrichment/page-discovery.ts'
import { phonesFromText } from '#app/.server/enrichment/phones.ts'
import { companyIdsFromText } from '#app/.server/enrichment/siret.ts'
import { siteCountry } from '#app/.server/enrichment/site-country.ts'
import { classifySocialUrl } from '#app/.server/enrichment/social.ts'
import { detectTechnologies } from '#app/.server/enrichment/technologies.ts'

const page = (url: string, body: string, kind: ExtractionPage['kind'] = 'home', head = '', lang = 'fr'): ExtractionPage => {
  const html = `<!DOCTYPE html><html lang="${lang}"><head>${head}</head><body>${body}</body></html>`
  return { kind, url, html, parsed: parsePage(html, url), headers: {} }
}
const findings = (pages: ExtractionPage[], country: string | null) => extractFindings(pages, { country, robotsText: '' })
const e164 = (phones: string[]) => phones.map((p) => p.replace(/[^\d+]/g, ''))

describe('numbers read in the site’s own country, whatever the lead’s', () => {
  it('a .be site (fr-BE) crawled for a French export: +32, never +33', () => {
    const home = page('https://www.plomberie-lejeune.be/', '<p>Bureau : 04 227 45 18<br>GSM : 0475 62 13 09</p>', 'home', '', 'fr-BE')
    expect(e164(findings([home], 'FR').phones)).toEqual(['+3242274518', '+32475621309'])
  })

  it('a Belgian site on a .com: its address ("Belgique") and its +32 tel link decide', () => {
    const home = page('https://www.boulangerie-delmotte.com/', '<p>Grand-Rue 12<br>7000 Mons<br>Belgique</p><p><a href="tel:+3265312210">Magasin</a><br>GSM : 0496 18 44 27<br>Commandes : 065 84 21 77</p>')
    expect(e164(findings([home], 'FR').phones)).toEqual(['+3265312210', '+32496184427', '+3265842177'])
  })

  it('a Swiss shop on a .com: JSON-LD addressCountry and "…, Suisse"', () => {
    const ld = '<script type="application/ld+json">{"@type":"Store","address":{"@type":"PostalAddress","addressCountry":"CH"}}</script>'
    const home = page('https://www.fromagerie-progin.com/', '<p>Rue de Lausanne 41, 1700 Fribourg, Suisse</p><p>Tél. 026 322 45 18 – Natel 079 218 44 10</p>', 'home', ld)
    expect(e164(findings([home], 'FR').phones)).toEqual(['+41263224518', '+41792184410'])
    expect(siteCountry([home], 'FR')).toBe('CH')
  })

  it('a Québec site without a lead country: 514 277-3841, 1 888 341-2290 and 450.667.2211', () => {
    const home = page('https://www.renovationsbeaulieu.ca/', '<p>Appelez-nous : 514 277-3841 · Sans frais : 1 888 341-2290</p><p>Laval : 450.667.2211</p><p>Licence RBQ 5678-1234-01</p>', 'home', '', 'fr-CA')
    expect(e164(findings([home], null).phones)).toEqual(['+15142773841', '+18883412290', '+14506672211'])
    // Those forms are read for North American sites only: a French page's "514 277-3841" is no number.
    expect(phonesFromText('Réf. 514 277-3841', 'FR')).toEqual([])
  })

  it('a French site stays French: a delivery area in prose or an en-US template language is no address', () => {
    const fr = page('https://www.fleurs-lille.fr/', '<p>Livraison en France, Belgique et Suisse.</p><p>Tél. 03 20 55 61 02</p>', 'home', '', 'fr-BE')
    expect(siteCountry([fr], 'FR')).toBe('FR')
    const com = page('https://www.traiteur-gones.com/', '<p>Tél. 04 78 62 31 90</p>', 'home', '', 'en-US')
    expect(e164(findings([com], 'FR').phones)).toEqual(['+33478623190'])
  })
})

describe('agency and host blocks under any heading wording', () => {
  it.each([
    ['Concepteur et hébergeur du site'],
    ['Design et développement'],
    ['Créateur du site'],
    ['Webdesigner'],
    ['Conception, réalisation et maintenance'],
  ])('"%s": the agency’s email and phone are not the business’s', (heading) => {
    const home = page(
      'https://www.plomberie-lejeune.be/',
      `<main><p>Tél. 04 227 45 18 – <a href="mailto:info@plomberie-lejeune.be">info@plomberie-lejeune.be</a></p></main><footer><div><h4>${heading}</h4><p>Studio Meuse Web<br>Tél. 04 253 12 12<br><a href="mailto:info@studiomeuse.be">info@studiomeuse.be</a></p></div></footer>`,
      'home',
      '',
      'fr-BE',
    )
    const found = findings([home], 'BE')
    expect(found.emails).toEqual(['info@plomberie-lejeune.be'])
    expect(e164(found.phones)).toEqual(['+3242274518'])
  })

  it('an inline "Conception Web :" credit (Québec) is the agency’s', () => {
    const home = page('https://www.toilettagecanin.com/', '<p>Téléphone : 418-529-4410</p><footer><p>Conception Web : Propulsion Web · 1 877 529-1111 · info@propulsionweb.ca</p></footer>', 'home', '', 'fr-CA')
    const found = findings([home], 'CA')
    expect(e164(found.phones)).toEqual(['+14185294410'])
    expect(found.emails).toEqual([])
  })

  it('a Belgian host (Combell nv) under "Hébergement" is cut, the firm’s own section is not', () => {
    const legal = page('https://www.dewinter-avocats.be/avis-legal', '<h2>Identification</h2><p>Tél. 02 512 34 56</p><h2>Hébergement</h2><p>Combell nv<br>+32 9 218 79 79<br>support@combell.be</p>', 'legal')
    const found = findings([legal], 'BE')
    expect(e164(found.phones)).toEqual(['+3225123456'])
    expect(found.emails).toEqual([])
  })

  it('a page titled "Crédits" keeps its publisher part: the SIRET and email there are the business’s', () => {
    const credits = page(
      'https://www.boisetfil.fr/credits',
      '<h1>Crédits</h1><h2>Éditeur</h2><p>Atelier Bois &amp; Fil<br>N° SIRET du siège : 812 345 676 00025<br>Contact : atelier@boisetfil.fr</p><h2>Réalisation</h2><p>Agence Garonne Digitale<br>05 56 44 21 87<br>contact@garonne-digitale.fr</p>',
      'legal',
    )
    const found = findings([credits], 'FR')
    expect(found.siret).toBe('81234567600025')
    expect(found.emails).toEqual(['atelier@boisetfil.fr'])
    expect(found.phones).toEqual([])
  })
})

describe('mailto forms', () => {
  it.each([
    ['mailto:Plomberie Lejeune <info@plomberie-lejeune.be>?subject=Demande%20d’information', ['info@plomberie-lejeune.be']],
    ['mailto:%22Fiduciaire%20Rochat%22%20%3Cinfo%40fiduciaire-rochat.ch%3E?subject=Rendez-vous', ['info@fiduciaire-rochat.ch']],
    ['mailto:"Dupont, Jean" <jean@menuiserie.fr>', ['jean@menuiserie.fr']],
    ['mailto://boulangerie.delmotte@skynet.be', ['boulangerie.delmotte@skynet.be']],
    ['mailto:a@b.fr,c@d.fr', ['a@b.fr', 'c@d.fr']],
  ])('%s', (href, emails) => {
    expect(emailsFromMailto(href)).toEqual(emails)
  })
})

describe('company ids under other labels (Luhn-checked)', () => {
  it.each([
    ['SIRET (siège) : 532 104 874 00021', '53210487400021'],
    ['N° SIRET du siège : 812 345 676 00025', '81234567600025'],
    ['SIRET du siège social : 812 345 676 00025', '81234567600025'],
    ['SIRET de l’établissement : 812 345 676 00025', '81234567600025'],
  ])('%s', (text, siret) => {
    expect(companyIdsFromText(text).siret).toBe(siret)
  })

  it('"SIREN :", "RCS … B …" and the register written out', () => {
    expect(companyIdsFromText('SIREN : 793 456 120').siren).toBe('793456120')
    expect(companyIdsFromText('RCS Strasbourg B 793 456 120').siren).toBe('793456120')
    expect(companyIdsFromText('immatriculée au Registre du Commerce et des Sociétés de Nantes sous le numéro 501 983 761.').siren).toBe('501983761')
    // A number that fails Luhn is never taken, whatever its label.
    expect(companyIdsFromText('SIRET (siège) : 532 104 874 00022')).toEqual({ siret: null, siren: null })
  })
})

describe('old LinkedIn addresses', () => {
  it.each(['https://fr.linkedin.com/pub/marc-lefevre/4a/231/9b7', 'https://www.linkedin.com/company-beta/1234567/', 'https://www.linkedin.com/profile/view?id=12345678'])('%s is a profile', (url) => {
    expect(classifySocialUrl(url)).toBe('linkedin')
  })
  it('the bare /pub/ and /profile/view paths are not', () => {
    expect(classifySocialUrl('https://www.linkedin.com/pub/')).toBeNull()
    expect(classifySocialUrl('https://www.linkedin.com/profile/view')).toBeNull()
  })
})

describe('quote, legal and credits pages a homepage does not name as contact / legal', () => {
  const at = (href: string, text = '') => scoreLink(new URL(href, 'https://site.example/'), text)
  it('quote pages are contact pages of the weaker sort; Avis légal, Infos légales and Crédits are legal pages', () => {
    expect(at('/devis', 'Demande de devis')).toEqual({ kind: 'contact', score: 0.75, quote: true })
    expect(at('/soumission', '')).toEqual({ kind: 'contact', score: 0.5, quote: true })
    expect(at('/x', 'Soumission gratuite')?.kind).toBe('contact')
    expect(at('/avis-legal', 'Avis légal')?.kind).toBe('legal')
    expect(at('/infos-legales', '')?.kind).toBe('legal')
    expect(at('/credits', 'Crédits')?.kind).toBe('legal')
  })

  it('a real contact page ranks before a quote page, and a quote page alone leaves the contact kind missing', () => {
    const quote = { url: 'https://s.example/devis', kind: 'contact' as const, score: 0.75, quote: true }
    const contact = { url: 'https://s.example/contact', kind: 'contact' as const, score: 1 }
    expect(rankCandidates([quote, contact]).map((c) => c.url)).toEqual([contact.url, quote.url])
    expect(missingKinds([quote])).toEqual(['contact', 'legal'])
  })

  it('common addresses by the homepage’s language, for the missing kinds only', () => {
    const home = new URL('https://www.traiteur-gones.fr/')
    expect(commonPathCandidates(home, 'fr-BE', ['legal'])).toEqual([{ url: 'https://www.traiteur-gones.fr/mentions-legales', kind: 'legal' }])
    expect(commonPathCandidates(home, 'de-CH', ['contact', 'legal']).map((c) => c.url)).toEqual(['https://www.traiteur-gones.fr/kontakt', 'https://www.traiteur-gones.fr/impressum'])
    expect(commonPathCandidates(home, null, []).length).toBe(0)
  })
})

describe('FlexSlider and Publii fingerprints', () => {
  const detect = (html: string) => {
    const parsed = parsePage(html, 'https://site.example/')
    return detectTechnologies({ url: 'https://site.example/', html, text: parsed.text, scriptSrc: parsed.scriptSrc, meta: parsed.meta, headers: {} }).map((t) => t.name)
  }
  it('FlexSlider from its distribution file, WooCommerce’s versioned copy, or its markup and call', () => {
    expect(detect('<script src="js/jquery.flexslider-min.js"></script>')).toContain('FlexSlider')
    expect(detect('<script src="/wp-content/plugins/woocommerce/assets/js/flexslider/jquery.flexslider.min.js?ver=2.7.2-wc.8.1.1"></script>')).toContain('FlexSlider')
    expect(detect('<div class="flexslider"><ul class="slides"><li>a</li></ul></div><script>$(".flexslider").flexslider({ animation: "slide" })</script>')).toContain('FlexSlider')
    expect(detect('<div class="slider"><ul class="slides"><li>a</li></ul></div>')).not.toContain('FlexSlider')
  })
  it('Publii from its generator meta or its theme’s inline menu configuration', () => {
    expect(detect('<meta name="generator" content="Publii Open-Source CMS for Static Site">')).toContain('Publii')
    expect(detect("<script>window.publiiThemeMenuConfig={mobileMenuMode:'sidebar'};</script>")).toContain('Publii')
    expect(detect('<meta name="generator" content="Hugo 0.120">')).not.toContain('Publii')
  })
})
