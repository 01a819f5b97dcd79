import { describe, expect, it } from 'vitest'
import { type ExtractionPage, extractFindings } from '#app/.server/enrichment/findings.ts'
import { parsePage } from '#app/.server/enrichment/html.ts'

const SITE = 'https://www.boulangerie.fr/'

/** A homepage and a legal notice, read the way the crawler reads them. */
function site(home: string, legal: string) {
  const page = (kind: ExtractionPage['kind'], url: string, body: string): ExtractionPage => {
    const html = `<html><body><main>${body}</main></body></html>`
    return { kind, url, html, parsed: parsePage(html, url), headers: {} }
  }
  const pages = [page('home', SITE, home), page('legal', `${SITE}mentions-legales`, legal)]
  return extractFindings(pages, { country: 'FR', robotsText: '' })
}

const OWN_HOME = '<p>Boulangerie Martin – 04 78 12 34 56 – contact@boulangerie.fr</p>'
const OWN_IDS = '<h2>Informations légales</h2><p>SIRET 732 829 320 00074</p>'
const AGENCY = { email: 'hello@pixelrhone.fr', phone: '+33 4 72 00 11 22', siret: '55210055400021' }
const AGENCY_DETAILS = '<p>12 quai Perrache, 69002 Lyon</p><p>04 72 00 11 22 – hello@pixelrhone.fr</p><p>SIRET 552 100 554 00021</p>'
const END = '<h2>Propriété intellectuelle</h2><p>Tous droits réservés.</p>'

describe('a web agency named as the site’s publisher ("Éditeur") is ambiguous (issue 19, item 10)', () => {
  it.each([
    ['an <h2> heading', `<h2>Éditeur</h2><p>Pixel Rhône, agence web</p>${AGENCY_DETAILS}`],
    ['"Éditeur du site" and a digital agency', `<h3>Éditeur du site</h3><p>Pixel Rhône – agence digitale</p>${AGENCY_DETAILS}`],
    ['a definition list', `<dl><dt>Éditeur</dt><dd>Pixel Rhône – création de sites internet</dd><dd>04 72 00 11 22 – hello@pixelrhone.fr</dd><dd>SIRET 552 100 554 00021</dd></dl>`],
    ['a <strong> label', `<p><strong>Éditeur :</strong> Pixel Rhône, studio graphique</p>${AGENCY_DETAILS}`],
    ['an "Éditeur : …" paragraph', `<p>Éditeur : Pixel Rhône, développement web et webdesign</p>${AGENCY_DETAILS}`],
    ['"Publisher"', `<h2>Publisher</h2><p>Pixel Rhône web agency</p>${AGENCY_DETAILS}`],
    ['a site builder', `<h2>Éditeur</h2><p>Wix.com Inc.</p>${AGENCY_DETAILS}`],
  ])('%s: left out when the site gives the business’s own email, phone and SIRET', (_, publisher) => {
    const found = site(OWN_HOME, `${publisher}${OWN_IDS}${END}`)
    expect(found.emails).toEqual(['contact@boulangerie.fr'])
    expect(found.phones).toEqual(['+33 4 78 12 34 56'])
    expect(found.siret).toBe('73282932000074')
  })

  it('is taken when the site has nothing else', () => {
    const found = site('<p>Pain au levain, viennoiseries.</p>', `<h2>Éditeur</h2><p>Pixel Rhône, agence de communication</p>${AGENCY_DETAILS}${END}`)
    expect(found).toMatchObject({ emails: [AGENCY.email], phones: [AGENCY.phone], siret: AGENCY.siret, companyIdsPage: `${SITE}mentions-legales` })
    expect(found.emailPages).toEqual({ [AGENCY.email]: `${SITE}mentions-legales` })
  })

  it('decides each kind on its own: only the kinds the site gives elsewhere are left out', () => {
    const publisher = `<h2>Éditeur</h2><p>Pixel Rhône, agence web</p>${AGENCY_DETAILS}${END}`
    expect(site('<p>Appelez-nous : 04 78 12 34 56</p>', publisher)).toMatchObject({ phones: ['+33 4 78 12 34 56'], emails: [AGENCY.email], siret: AGENCY.siret })
    expect(site('<p>contact@boulangerie.fr</p>', publisher)).toMatchObject({ emails: ['contact@boulangerie.fr'], phones: [AGENCY.phone], siret: AGENCY.siret })
    expect(site('<p>Pain au levain.</p>', `${publisher}${OWN_IDS}`)).toMatchObject({ emails: [AGENCY.email], phones: [AGENCY.phone], siret: '73282932000074' })
  })

  it('treats its mailto: and tel: links the same way', () => {
    const publisher = '<h2>Éditeur</h2><p>Pixel Rhône, agence web – <a href="mailto:hello@pixelrhone.fr">Écrire</a> – <a href="tel:+33472001122">Appeler</a></p>'
    expect(site(OWN_HOME, publisher)).toMatchObject({ emails: ['contact@boulangerie.fr'], phones: ['+33 4 78 12 34 56'] })
    expect(site('<p>Pain au levain.</p>', publisher)).toMatchObject({ emails: [AGENCY.email], phones: [AGENCY.phone] })
  })

  it('keeps an address at the site’s own domain as the business’s', () => {
    const found = site(OWN_HOME, '<h2>Éditeur</h2><p>Pixel Rhône, agence web, pour la boulangerie – commandes@boulangerie.fr</p>')
    expect(found.emails).toEqual(['contact@boulangerie.fr', 'commandes@boulangerie.fr'])
  })

  it('keeps a publisher that is the business itself, even with the agency credited inside it', () => {
    const publisher =
      '<h2>Éditeur du site</h2><p>Boulangerie Martin SARL – 12 place du Marché, 69002 Lyon</p><p>04 78 00 99 88 – boutique@boulangerie-martin.fr</p>' +
      '<p>SIRET 732 829 320 00074</p><p>Site réalisé par Pixel Rhône, agence web – hello@pixelrhone.fr</p>'
    const found = site(OWN_HOME, `${publisher}${END}`)
    expect(found.emails).toEqual(['contact@boulangerie.fr', 'boutique@boulangerie-martin.fr'])
    expect(found.phones).toEqual(['+33 4 78 12 34 56', '+33 4 78 00 99 88'])
    expect(found.siret).toBe('73282932000074')
  })

  it('leaves a publisher sub-heading inside a credit section to the credit', () => {
    const credit = '<h2>Conception et réalisation</h2><p>Pixel Rhône</p><h3>Éditeur</h3><p>04 72 00 11 22 – hello@pixelrhone.fr</p>'
    expect(site('', `${credit}${END}`)).toMatchObject({ emails: [], phones: [] })
  })

  it('still cuts a host credited inside the business’s publisher section', () => {
    const publisher = '<h2>Éditeur</h2><p>Boulangerie Martin SARL – 04 78 00 99 88</p><p>Hébergeur : Nord Hosting SAS – 03 20 11 22 33 – support@nordhosting.fr</p>'
    expect(site('', publisher)).toMatchObject({ emails: [], phones: ['+33 4 78 00 99 88'] })
  })
})
