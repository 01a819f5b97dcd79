import { describe, expect, it } from 'vitest'
import { type ExtractionPage, extractFindings } from '#app/.server/enrichment/findings.ts'
import { parsePage } from '#app/.server/enrichment/html.ts'
import { normalizePhone, phonesFromText } from '#app/.server/enrichment/phones.ts'
import { companyIdsFromText } from '#app/.server/enrichment/siret.ts'

function findings(html: string, { country = 'FR', url = 'https://www.boulangerie.fr/', kind = 'home' as ExtractionPage['kind'] } = {}) {
  const page: ExtractionPage = { kind, url, html, parsed: parsePage(html, url), headers: {} }
  return extractFindings([page], { country, robotsText: '' })
}

describe('"SIREN / SIRET" on one line, both numbers on the next (issue 19, item 11)', () => {
  it.each([
    ['SIREN / SIRET :\n440 312 791 / 440 312 791 00088'],
    ['SIREN / SIRET : 440312791 / 44031279100088'],
    ['SIRET / SIREN :\n440 312 791 00088 – 440 312 791'],
    ['Siren et Siret\n440 312 791\n440 312 791 00088'],
  ])('reads both from %j', (text) => {
    expect(companyIdsFromText(text)).toEqual({ siret: '44031279100088', siren: '440312791' })
  })

  it('from a legal notice laid out with a <br> between the label and the numbers', () => {
    const found = findings('<p><strong>SIREN / SIRET :</strong><br>440 312 791 / 440 312 791 00088</p>', { kind: 'legal' })
    expect(found).toMatchObject({ siret: '44031279100088', siren: '440312791' })
  })

  it('still Luhn-checks each number: a wrong SIRET leaves the valid SIREN alone', () => {
    expect(companyIdsFromText('SIREN / SIRET :\n440 312 791 / 440 312 791 00089')).toEqual({ siret: null, siren: '440312791' })
    expect(companyIdsFromText('SIREN / SIRET :\n440 312 792 / 440 312 792 00088')).toEqual({ siret: null, siren: null })
  })
})

describe('Italian mobiles written without 0 or + (issue 19, item 16)', () => {
  const italian = (text: string) => phonesFromText(text, 'IT').map((raw) => normalizePhone(raw, 'IT'))

  it.each([
    ['Cell. 347 123 4567', '+39 347 123 4567'],
    ['Cellulare: 347.123.4567', '+39 347 123 4567'],
    ['Cell. 3471234567', '+39 347 123 4567'],
    ['Tel. 0541 123456 – Cell. 347-123-4567', '+39 347 123 4567'],
    ['Prenotazioni 338 1234567', '+39 338 123 4567'],
  ])('reads %j on an Italian site', (text, number) => {
    expect(italian(text)).toContain(number)
  })

  it('reads them where the lead is Italian or the site is .it, and nowhere else', () => {
    const html = '<html><body><p>Cell. 347 123 4567</p></body></html>'
    expect(findings(html, { country: 'IT', url: 'https://www.trattoria.it/' }).phones).toEqual(['+39 347 123 4567'])
    expect(findings(html, { country: 'FR', url: 'https://www.boulangerie.fr/' }).phones).toEqual([])
    expect(phonesFromText('Cell. 347 123 4567')).toEqual([])
    expect(phonesFromText('Cell. 347 123 4567', 'FR')).toEqual([])
  })

  it('does not take bare digit runs for phones, even in Italy: VAT, codes, prices, a run without a phone label', () => {
    expect(italian('P.IVA 03471234567')).toEqual([])
    expect(italian('Partita IVA: 347 123 4567')).toEqual([])
    expect(italian('Ordine n. 3471234567')).toEqual([])
    expect(italian('Prezzo 347.123,45 €')).toEqual([])
    expect(italian('CAP 47921 Rimini, REA RN-347123')).toEqual([])
    expect(phonesFromText('SIREN 347 123 456', 'FR')).toEqual([])
  })
})

describe('technologies the bundled fingerprints miss (issue 19, item 14)', () => {
  const site = (html: string) => findings(`<html><head>${html}</head><body><p>Bienvenue</p></body></html>`).technologyDetails.map((t) => t.name)

  it('Google Analytics from an inline snippet: gtag config (either quotes) and the analytics.js ga create', () => {
    expect(site(`<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag("js",new Date());gtag("config","G-4XK2M9P1QZ");</script>`)).toContain('Google Analytics')
    expect(site(`<script>(function(i,s,o,g,r,a,m){i['GoogleAnalyticsObject']=r})(window,document,'script','https://www.google-analytics.com/analytics.js','ga');ga('create', 'UA-1234567-1', 'auto');ga('send','pageview');</script>`)).toContain('Google Analytics')
    expect(site(`<script>var config = { create: 'UA-' };</script>`)).not.toContain('Google Analytics')
  })

  it('scripts a consent banner holds back count as the site’s scripts (data-src, data-cmplz-src)', () => {
    const held = '<script type="text/plain" data-cookieconsent="statistics" data-src="https://www.googletagmanager.com/gtag/js?id=G-4XK2M9P1QZ"></script>'
    expect(parsePage(held, 'https://b.fr/').scriptSrc).toEqual(['https://www.googletagmanager.com/gtag/js?id=G-4XK2M9P1QZ'])
    expect(site(held)).toContain('Google Analytics')
    expect(parsePage('<script type="text/plain" data-cmplz-src="/js/gsap.min.js"></script>', 'https://b.fr/').scriptSrc).toEqual(['https://b.fr/js/gsap.min.js'])
  })

  it.each([
    ['Complianz', '<link rel="stylesheet" href="/wp-content/themes/x/style.css"><script src="/wp-content/plugins/complianz-gdpr/cookiebanner/js/complianz.min.js?ver=6.5.2"></script>'],
    ['GSAP', '<script src="https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js"></script>'],
    ['tarteaucitron.js', '<script src="/tarteaucitron/tarteaucitron.js"></script><script>tarteaucitron.init({"privacyUrl":""});</script>'],
    ['tarteaucitron.js', '<script>tarteaucitron.init({"hashtag":"#tarteaucitron"});</script>'],
    ['Axeptio', '<script>window.axeptioSettings = { clientId: "5f3b", cookiesVersion: "fr" };</script><script async src="https://static.axept.io/sdk.js"></script>'],
    ['Cookiebot', '<script id="Cookiebot" src="https://consent.cookiebot.eu/uc.js" data-cbid="1a2b" type="text/javascript"></script>'],
  ])('%s', (name, html) => {
    expect(site(html)).toContain(name)
  })

  it('a GSAP version is read from the jsDelivr address; plain words do not make a detection', () => {
    const gsap = findings('<script src="https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js"></script>').technologyDetails.find((t) => t.name === 'GSAP')
    expect(gsap?.version).toBe('3.12.5')
    expect(site('<p>Nous utilisons tarteaucitron, Axeptio et Cookiebot.</p>')).toEqual([])
  })
})
