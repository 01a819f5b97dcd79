import { describe, expect, it } from 'vitest'
import { type ExtractionPage, extractFindings } from '#app/.server/enrichment/findings.ts'
import { parsePage } from '#app/.server/enrichment/html.ts'
import { homeAddresses, pageKey } from '#app/.server/enrichment/page-key.ts'
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

describe('agency, designer and host blocks left out whole (issue 19, item 10)', () => {
  const legal = (body: string) => findings(`<html><body><main>${body}</main></body></html>`, { kind: 'legal', url: 'https://www.boulangerie.fr/mentions-legales' })
  const OWN = '<h2>Éditeur</h2><p>Boulangerie Martin SARL – 12 place du Marché, 69002 Lyon – 04 78 12 34 56 – contact@boulangerie.fr – SIRET 732 829 320 00074</p>'

  it.each([
    ['a host heading and its paragraphs', '<h2>Hébergement</h2><p>OVH SAS</p><p>2 rue Kellermann – 59100 Roubaix</p><p>Tél : 09 72 10 10 07 – support@ovh.com</p><p>RCS Lille Métropole 424 761 419</p>'],
    ['"Hébergement / Hébergeur" with <br> lines', '<h3>Hébergement / Hébergeur</h3><p>o2switch SARL<br>Chemin des Pardiaux, 63000 Clermont-Ferrand<br>04 44 44 60 40<br>support@o2switch.fr<br>SIREN 510 909 807</p>'],
    ['"Conception et réalisation" on one line', '<h3>Conception et réalisation</h3><p>Agence Pixel Rhône – hello@pixelrhone.fr – 04 72 00 11 22 – SIRET 552 100 554 00011</p>'],
    ['"Conception & Réalisation" in a section of its own', '<section><h2>Conception &amp; Réalisation</h2><div><p>Studio Graphite</p><p>06 12 34 56 78</p></div><p>studio@graphite.fr</p></section>'],
    ['"Charte graphique"', '<h4>Charte graphique</h4><p>Atelier Ligne – atelier.ligne@gmail.com</p><p>07 81 22 33 44</p>'],
    ['"Web design"', '<h2>Web design</h2><p>Nord Web – 03 20 00 00 01 – contact@nordweb.fr</p>'],
    ['"Crédits"', '<h2>Crédits</h2><p>Photos : Studio Lumière</p><p>Site : Agence Ouest, 02 99 00 11 22, bonjour@agence-ouest.fr</p>'],
    ['a definition list', '<dl><dt>Hébergeur</dt><dd>IONOS SARL</dd><dd>7 place de la Gare, 57200 Sarreguemines</dd><dd>09 70 80 89 11</dd><dd>RCS Sarreguemines 431 303 775</dd></dl>'],
    ['a <strong> label then several paragraphs', '<p><strong>Hébergeur :</strong> OVH SAS</p><p>2 rue Kellermann</p><p>59100 Roubaix</p><p>Tél. : 09 72 10 10 07</p>'],
    ['a text label then several paragraphs', '<p>Réalisation du site : Agence Sud Web</p><p>8 avenue Foch, 13001 Marseille</p><p>04 91 00 22 33 – hello@sudweb.fr</p>'],
  ])('%s', (_, block) => {
    const found = legal(`${OWN}${block}<h2>Propriété intellectuelle</h2><p>Tous droits réservés.</p>`)
    expect(found.emails).toEqual(['contact@boulangerie.fr'])
    expect(found.phones).toEqual(['+33 4 78 12 34 56'])
    expect(found.siret).toBe('73282932000074')
  })

  it('takes no SIREN from a credit block when the business prints none', () => {
    expect(legal('<h2>Hébergement</h2><p>OVH SAS – RCS Lille Métropole 424 761 419 00045</p>').siren).toBeNull()
    expect(legal('<h3>Conception et réalisation</h3><p>Agence XYZ – SIRET 552 100 554 00011</p>').siren).toBeNull()
    // The well-known hosts' numbers and addresses whatever the layout.
    expect(legal('<p>Le site est hébergé en France.</p><p>OVH – 424 761 419 RCS Lille – 09 72 10 10 07</p>')).toMatchObject({ siren: null, phones: [] })
    expect(legal('<p>Wix.com Inc. – +1 415-639-9034 – support@wix.com</p><p>Support : support@ovh.com, assistance@o2switch.fr</p>')).toMatchObject({ emails: [], phones: [] })
  })

  it('ends the block at the next heading of the same level, the next <dt>, the next labelled paragraph or its section', () => {
    expect(legal('<h2>Hébergement</h2><p>OVH SAS</p><h3>Adresse</h3><p>2 rue Kellermann</p><h2>Contact</h2><p>04 78 12 34 56</p>').phones).toEqual(['+33 4 78 12 34 56'])
    expect(legal('<dl><dt>Hébergeur</dt><dd>OVH SAS</dd><dt>Téléphone</dt><dd>04 78 12 34 56</dd></dl>').phones).toEqual(['+33 4 78 12 34 56'])
    expect(legal('<p><strong>Hébergeur :</strong> OVH SAS</p><p><strong>Contact :</strong> 04 78 12 34 56</p>').phones).toEqual(['+33 4 78 12 34 56'])
    expect(legal('<p>Hébergeur : OVH SAS</p><p>Directeur de la publication : Jean Martin – 04 78 12 34 56</p>').phones).toEqual(['+33 4 78 12 34 56'])
    expect(legal('<section><h2>Crédits</h2><p>Agence X</p></section><section><p>Appelez-nous : 04 78 12 34 56</p></section>').phones).toEqual(['+33 4 78 12 34 56'])
  })

  it('keeps a gîte’s "Hébergement" section and a florist’s "Création" section', () => {
    expect(legal('<h2>Hébergement</h2><p>Gîte pour 6 personnes</p><p>Réservations : 03 89 73 65 12</p>').phones).toEqual(['+33 3 89 73 65 12'])
    expect(legal('<h2>Création</h2><p>Bouquets sur mesure</p><p>Commandes : 04 78 12 34 56</p>').phones).toEqual(['+33 4 78 12 34 56'])
  })
})

describe('one fetch per page: page keys and the homepage’s addresses (issue 19, item 13)', () => {
  it('gives every way of writing a page one key', () => {
    const home = ['http://x.fr', 'https://www.x.fr/', 'https://x.fr/index.html', 'https://X.fr/#contact', 'http://www.x.fr:80/index.php', 'https://x.fr/?']
    expect(new Set(home.map(pageKey))).toEqual(new Set(['x.fr']))
    expect(pageKey('https://www.x.fr/contact/')).toBe(pageKey('http://x.fr/contact#form'))
    expect(pageKey('https://x.fr/?page_id=12')).not.toBe(pageKey('https://x.fr/?page_id=27'))
    expect(pageKey('https://x.fr:8443/')).not.toBe(pageKey('https://x.fr/'))
  })

  it('asks https first for a public site given as http or bare, and keeps ports and IP addresses as written', () => {
    expect(homeAddresses('http://www.x.fr')).toEqual(['https://www.x.fr/', 'http://www.x.fr'])
    expect(homeAddresses('https://x.fr/')).toEqual(['https://x.fr/'])
    expect(homeAddresses('http://127.0.0.1:4321/sites/a')).toEqual(['http://127.0.0.1:4321/sites/a'])
    expect(homeAddresses('http://x.fr:8080/')).toEqual(['http://x.fr:8080/'])
    expect(homeAddresses('http://localhost/')).toEqual(['http://localhost/'])
  })
})
