import { describe, expect, it } from 'vitest'
import { creditRanges } from '#app/.server/enrichment/credits.ts'
import { emailsFromText } from '#app/.server/enrichment/emails.ts'
import { type ExtractionPage, extractFindings } from '#app/.server/enrichment/findings.ts'
import { parsePage } from '#app/.server/enrichment/html.ts'
import { phoneFromWhatsAppUrl, phonesFromText } from '#app/.server/enrichment/phones.ts'
import { scriptStrings } from '#app/.server/enrichment/script-strings.ts'

const contact = (html: string) => parsePage(`<html><body>${html}</body></html>`, 'https://www.boulangerie.fr/').contactText

function findings(html: string, country = 'FR') {
  const url = 'https://www.boulangerie.fr/'
  const page: ExtractionPage = { kind: 'home', url, html, parsed: parsePage(html, url), headers: {} }
  return extractFindings([page], { country, robotsText: '' })
}

describe('credit blocks (agency, designer, host)', () => {
  it.each([
    ['<p>Site réalisé par l’agence Pixel Rhône – <a href="mailto:bonjour@pixelrhone.fr">bonjour@pixelrhone.fr</a> – 04 72 00 11 22</p>'],
    ['<footer><p>Design : Studio Est – studio.est@gmail.com</p></footer>'],
    ['<p>Website by <a href="https://web.co.uk">Cotswold Web</a> – hello@cotswoldweb.co.uk</p>'],
    ['<font>Mise à jour le 12/03/2019 – Réalisation : Christian Weber webmaster – christian.weber68@wanadoo.fr</font>'],
    ['<p><a href="/contact/">Contact</a> · Réalisation <a href="https://nordweb.fr">Nord Web</a> 03 20 00 00 01</p>'],
    ['<p>Hébergeur : o2switch, Chemin des Pardiaux, 63000 Clermont-Ferrand – 04 44 44 60 40</p>'],
    ['<h2>Hébergement</h2><p>OVH SAS, 2 rue Kellermann, 59100 Roubaix – 09 72 10 10 07</p>'],
    ['<h2>Réalisation</h2><p>Agence Web Ouest – contact@web-ouest.fr</p>'],
    ['<p>Made by <a href="https://studio.io">Studio</a> hi@studio.io</p>'],
    ['<p>Erstellt von Webagentur Müller – info@webagentur-mueller.de – 0761 123456</p>'],
    ['<p>Diseño web: Agencia Sol – hola@agenciasol.es</p>'],
    ['<p>Sito realizzato da Web Roma – info@webroma.it</p>'],
    ['<p>Website gemaakt door Pixel BV – info@pixelbv.nl</p>'],
    ['<p>Powered by Hostingbedrijf – 020 123 4567 – support@host.nl</p>'],
  ])('leaves out the credit of %s', (html) => {
    const found = findings(`<html><body>${html}</body></html>`)
    expect(found.emails).toEqual([])
    expect(found.phones).toEqual([])
  })

  it('keeps the business’s own footer contact, prose that happens to use a credit word, and a gîte’s lodging section', () => {
    expect(contact('<footer><p>Boulangerie Martin – 04 78 12 34 56 – contact@boulangerie.fr</p><p>Réalisation : Agence X – x@agence.fr</p></footer>')).toContain('contact@boulangerie.fr')
    expect(contact('<p>Création et entretien de jardins – 02 96 12 34 56</p>')).toContain('02 96 12 34 56')
    expect(contact('<p>Design scandinave, conception sur mesure. Tél 04 78 12 34 56</p>')).toContain('04 78 12 34 56')
    expect(contact('<h2>Hébergement</h2><p>Gîte pour 6 personnes, réservation au 03 89 73 65 12</p>')).toContain('03 89 73 65 12')
    expect(contact('<p>Téléphone : +33 4 90 72 11 22<br>Hébergeur : Shopify Inc., Ottawa</p>')).toContain('+33 4 90 72 11 22')
    expect(contact('<h2>Création</h2><p>Bouquets sur mesure, commandez au 04 78 12 34 56</p>')).toContain('04 78 12 34 56')
    expect(contact('<p><strong>Hébergement :</strong> OVH SAS</p><p>Contact : 04 78 12 34 56</p>')).toContain('04 78 12 34 56')
    expect(contact('<p>Interior design by appointment: 01608 642000</p>')).toContain('01608 642000')
    expect(contact('<p>Site réalisé par nos soins – contact@boulangerie.fr</p>')).toContain('contact@boulangerie.fr')
  })

  it('ends a credit at the site’s own links or copyright that follow it on the line', () => {
    const text = contact('<p>Réalisation : Agence X – x@agence.fr · © 2024 Boulangerie – 04 78 12 34 56</p>')
    expect(text).not.toContain('x@agence.fr')
    expect(text).toContain('04 78 12 34 56')
    const page = parsePage('<p>Designed by <a href="https://et.com">ET</a> | <a href="/mentions-legales/">Mentions légales</a></p>', 'https://b.fr/')
    expect(page.links.map((l) => l.credit)).toEqual([true, false])
  })

  it('leaves out the whole block after a credit heading, <br> lines included', () => {
    const text = contact('<h3>Conception et réalisation</h3><p>Agence Pixel<br>12 rue Neuve, Lyon<br>04 72 00 11 22<br>hello@pixel.fr</p><h3>Contact</h3><p>04 78 12 34 56</p>')
    expect(text).not.toMatch(/04 72 00 11 22|hello@pixel\.fr/)
    expect(text).toContain('04 78 12 34 56')
    expect(contact('<dl><dt>Hébergeur</dt><dd>IONOS SARL<br>7 place de la Gare<br>09 70 80 89 11</dd></dl>')).not.toContain('09 70 80 89 11')
  })

  it('leaves out Cloudflare-protected addresses of a credit block', () => {
    const page = parsePage('<p><span data-cfemail="00aa">x</span></p><p>Réalisation : Agence <span data-cfemail="11bb">y</span></p>', 'https://b.fr/')
    expect(page.cfEmails).toEqual(['00aa'])
  })

  it('keeps an address at the site’s own domain even inside a credit', () => {
    expect(findings('<p>Site créé par Boulangerie Martin – <a href="mailto:web@boulangerie.fr">web@boulangerie.fr</a> – contact@boulangerie.fr – x@agence.fr</p>').emails).toEqual(['web@boulangerie.fr', 'contact@boulangerie.fr'])
  })

  it('flags the links inside a credit block only', () => {
    const page = parsePage('<p><a href="tel:0478123456">Appeler</a></p><p>Site créé par <a href="mailto:a@agence.fr">Agence</a></p>', 'https://b.fr/')
    expect(page.links.map((l) => [l.href, l.credit])).toEqual([['tel:0478123456', false], ['mailto:a@agence.fr', true]])
  })

  it('returns ranges from the credit phrase to the end of its line', () => {
    const text = 'Accueil\n© 2024 Boulangerie | Webdesign by Studio\n'
    expect(creditRanges(text).map(([s, e]) => text.slice(s, e))).toEqual(['Webdesign by Studio'])
  })
})

describe('emails built by inline JavaScript (static evaluation, never executed)', () => {
  it.each([
    [`var user = "cabinet"; var domain = "leroy-avocat.fr"; el.innerHTML = '<a href="mailto:' + user + '@' + domain + '">' + user + '@' + domain + '</a>';`, 'cabinet@leroy-avocat.fr'],
    [`document.write('<a href="mai' + 'lto:' + 'serrurerie.morel' + '@' + 'free.fr' + '">x</a>');`, 'serrurerie.morel@free.fr'],
    [`(function(){var a=['carrosserie.petit','laposte.net'];el.href='mailto:'+a[0]+'@'+a[1];})();`, 'carrosserie.petit@laposte.net'],
    [`var e = 'rf.eirelag-ertua@tcatnoc'.split('').reverse().join(''); x.textContent = e;`, 'contact@autre-galerie.fr'],
    [`var m = String.fromCharCode(105,110,102,111,64,98,46,102,114);`, 'info@b.fr'],
    [`window.location.href = 'mailto:' + 'accueil' + '\\x40' + 'hotel.fr';`, 'accueil@hotel.fr'],
    [`var s = 'devis'; s += '@'; s += 'toiture.fr'; document.write(s);`, 'devis@toiture.fr'],
    [`var b = atob('aW5mb0BiLmZy'); el.innerText = 'Mail: ' + b;`, 'info@b.fr'],
  ])('reads %s', (script, email) => {
    expect(scriptStrings(script).flatMap(emailsFromText)).toContain(email)
    expect(findings(`<html><body><script>${script}</script></body></html>`).emails).toContain(email)
  })

  it('ignores plain literals, regex literals and code it cannot evaluate, and stays bounded', () => {
    expect(scriptStrings(`var support = 'support@theme.com'; var r = /'@"/g; f(unknown + '@x.fr');`)).toEqual([])
    expect(scriptStrings(`var s = 'a'; ${'s = s + s; '.repeat(40)}`).every((v) => v.length <= 4000)).toBe(true)
    expect(scriptStrings('('.repeat(5000) + "'a' + 'b'")).toEqual([])
    expect(findings('<html><body><script src="x.js"></script><script type="application/json">{"a":"b"+"@c.fr"}</script></body></html>').emails).toEqual([])
  })
})

describe('phones', () => {
  it('does not read VAT numbers, approval numbers or similar identifiers as phones', () => {
    expect(phonesFromText('Trattoria da Mario S.r.l. – P.IVA 01234567890')).toEqual([])
    expect(phonesFromText('Agrément préfectoral : E 02 059 1234 0')).toEqual([])
    expect(phonesFromText('N° TVA : 0123 456 789 – IBAN FR76 3000')).toEqual([])
    expect(phonesFromText('SIRET 123 456 789 00012 – Tél : 01 23 45 67 89')).toEqual(['01 23 45 67 89'])
    expect(phonesFromText('RCS Paris 123 456 789 – 01 23 45 67 89')).toEqual(['01 23 45 67 89'])
  })

  it('reads WhatsApp click-to-chat links as mobile numbers', () => {
    expect(phoneFromWhatsAppUrl('https://wa.me/34612345678')).toBe('+34 612 34 56 78')
    expect(phoneFromWhatsAppUrl('https://api.whatsapp.com/send?phone=33612345678&text=Bonjour')).toBe('+33 6 12 34 56 78')
    expect(phoneFromWhatsAppUrl('https://wa.me/message/ABCDEF')).toBeNull()
    expect(phoneFromWhatsAppUrl('https://example.com/33612345678')).toBeNull()
  })

  it('keeps every business phone, the main one (tel: link) first, WhatsApp before numbers in text', () => {
    const html = `<html><body><header><p>Horaires 8h-19h</p></header><p>Boutique : 04 78 11 22 33, atelier : 04 78 44 55 66</p>
      <p><a href="tel:+33478123456">Appeler</a> <a href="https://wa.me/33612345678">WhatsApp</a></p>
      <footer>Réalisation : Agence Y – 04 72 00 11 22</footer></body></html>`
    expect(findings(html).phones).toEqual(['+33 4 78 12 34 56', '+33 6 12 34 56 78', '+33 4 78 11 22 33', '+33 4 78 44 55 66'])
  })
})

describe('company identifiers', () => {
  it('reads the SIRET from the legal notice first and names the page it was printed on', () => {
    const at = (url: string, html: string, kind: ExtractionPage['kind']): ExtractionPage => ({ kind, url, html, parsed: parsePage(html, url), headers: {} })
    const found = extractFindings(
      [
        at('https://s.fr/', '<footer>SIREN 552 100 554</footer>', 'home'),
        at('https://s.fr/mentions-legales', '<table><tr><td>SIRET :</td><td>732 829 320<br>00074</td></tr></table>', 'legal'),
      ],
      { country: 'FR', robotsText: '' },
    )
    expect(found).toMatchObject({ siret: '73282932000074', siren: '732829320', companyIdsPage: 'https://s.fr/mentions-legales' })
    const sirenOnly = extractFindings([at('https://s.fr/a-propos', '<p>RCS Lyon 552 100 554</p>', 'about')], { country: 'FR', robotsText: '' })
    expect(sirenOnly).toMatchObject({ siret: null, siren: '552100554', companyIdsPage: 'https://s.fr/a-propos' })
    expect(extractFindings([at('https://s.fr/', '<p>Bienvenue</p>', 'home')], { country: 'FR', robotsText: '' }).companyIdsPage).toBeNull()
  })
})
