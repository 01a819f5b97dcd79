import { describe, expect, it } from 'vitest'
import { addEmails, cleanEmail, decodeCfEmail, deobfuscate, emailsFromMailto, emailsFromText, junkEmailReason } from '#app/.server/enrichment/emails.ts'
import { jsonLdStrings, parsePage } from '#app/.server/enrichment/html.ts'
import { normalizePhone, phonesFromText, countryFromHostname } from '#app/.server/enrichment/phones.ts'
import { classifySocialUrl, addSocialLinks } from '#app/.server/enrichment/social.ts'
import { cleanSiret, companyIdsFromText } from '#app/.server/enrichment/siret.ts'
import { isValidSiren, isValidSiret, luhnValid } from '#app/domain/company-ids.ts'
import { decodeHtml } from '#app/.server/enrichment/html-stream.ts'
import { requiredLiterals } from '#app/.server/enrichment/regex-literals.ts'
import { detectTechnologies, groupByCategory } from '#app/.server/enrichment/technologies.ts'
import { nameSimilarity, normalizeCompanyName } from '#app/.server/enrichment/registry-names.ts'
import { parseRetryAfter } from '#app/utils/headers.ts'
import { cloudflareEncode } from '#server/demo/websites.ts'

function emailsOf(candidates: string[]): string[] {
  const set = new Set<string>()
  addEmails(set, candidates)
  return [...set]
}

describe('emails', () => {
  it('reads mailto links: URI-decoded, query stripped, several addresses', () => {
    expect(emailsFromMailto('mailto:contact%40boulangerie.fr?subject=Demande%20d%27information')).toEqual(['contact@boulangerie.fr'])
    expect(emailsFromMailto('MAILTO:a@b.fr,c@d.fr')).toEqual(['a@b.fr', 'c@d.fr'])
    expect(emailsFromMailto('https://example.org')).toEqual([])
  })

  it('de-obfuscates [at], (at), [dot] and spelled-out forms', () => {
    expect(emailsFromText(deobfuscate('Écrivez à contact [at] boulangerie-martin [dot] fr merci'))).toEqual(['contact@boulangerie-martin.fr'])
    expect(emailsFromText('bonjour (at) boulangerie.fr')).toEqual(['bonjour@boulangerie.fr'])
    expect(emailsFromText('info [at] salon.fr')).toEqual(['info@salon.fr'])
    expect(emailsFromText('contact at maison dot fr')).toEqual(['contact@maison.fr'])
    expect(emailsFromText('info{at}garage(dot)fr')).toEqual(['info@garage.fr'])
    // "at" in prose is not an address.
    expect(emailsFromText('Meet us at example.com or at the shop')).toEqual([])
  })

  it('finds plain addresses in text without swallowing the next word', () => {
    expect(emailsFromText('Email : contact@site.fr\nDirecteur')).toEqual(['contact@site.fr'])
    expect(emailsFromText('Email : contact@site.frTéléphone')).toEqual(['contact@site.fr'])
    expect(emailsFromText('écrire à devis@site.fr.')).toEqual(['devis@site.fr'])
  })

  it('decodes Cloudflare email protection (first byte is the XOR key)', () => {
    for (const key of [0x14, 0x7f, 0xa3, 0xff]) expect(decodeCfEmail(cloudflareEncode('bonjour@atelier-dupont.fr', key))).toBe('bonjour@atelier-dupont.fr')
    // The encoding by hand: key 0x42, "a" = 0x61 ^ 0x42 = 0x23.
    expect(decodeCfEmail('42' + [...'a@b.fr'].map((c) => (c.charCodeAt(0) ^ 0x42).toString(16).padStart(2, '0')).join(''))).toBe('a@b.fr')
    expect(decodeCfEmail('zz12')).toBeNull()
    expect(decodeCfEmail('4')).toBeNull()
  })

  it('drops junk: asset names, placeholders, DSNs, no-reply, too long, invalid', () => {
    const junk = [
      'logo@2x.png', 'hero@3x.jpg', 'icon@2x.webp', 'sprite@x.svg', 'image@2x-300x200.jpeg', 'banner@home.gif',
      'votre@email.fr', 'votre@email.com', 'email@domain.com', 'your@email.com', 'you@example.com', 'john.doe@example.org', 'nom@domaine.fr',
      'prenom.nom@exemple.fr', 'contact@example.com', 'info@yourdomain.com',
      'abc123def456abc123def456abc12345@o123456.ingest.sentry.io', '8f2c@sentry.io', 'a1b2c3@sentry-next.wixpress.com', 'x@sentry.wixpress.com',
      'noreply@boulangerie.fr', 'no-reply@salon.fr',
      `${'a'.repeat(250)}@b.fr`, `${'a'.repeat(65)}@b.fr`,
      'a..b@site.fr', '.a@site.fr', 'a@site', 'a@-site.fr', 'a@site.f', 'a b@site.fr', '@site.fr', 'a@',
    ]
    for (const email of junk) expect(cleanEmail(email), email).toBeNull()
    expect(junkEmailReason('logo@2x.png')).toBe('file name')
    expect(junkEmailReason('votre@email.fr')).toBe('placeholder')
  })

  it('keeps real addresses, lower-cased, trimmed and deduplicated in order', () => {
    expect(emailsOf(['Contact@Boulangerie-Martin.FR', ' <info@salon.fr>. ', 'contact@boulangerie-martin.fr', 'maxime.coiffure97@orange.fr', 'mailto:devis@site.fr'])).toEqual([
      'contact@boulangerie-martin.fr',
      'info@salon.fr',
      'maxime.coiffure97@orange.fr',
      'devis@site.fr',
    ])
    expect(cleanEmail('contact@café-martin.fr')).toBe('contact@xn--caf-martin-d7a.fr')
    expect(cleanEmail('email@maboulangerie.fr')).toBe('email@maboulangerie.fr')
  })
})

describe('social links', () => {
  it('classifies profile URLs by network', () => {
    const profiles: Array<[string, string]> = [
      ['https://www.facebook.com/boulangeriemartin', 'facebook'],
      ['https://fr-fr.facebook.com/pages/Boulangerie-Martin/123456', 'facebook'],
      ['https://www.facebook.com/profile.php?id=100064', 'facebook'],
      ['https://www.linkedin.com/company/boulangerie-martin', 'linkedin'],
      ['https://fr.linkedin.com/in/jean-martin-123', 'linkedin'],
      ['https://twitter.com/boulmartin', 'twitter'],
      ['https://x.com/boulmartin', 'twitter'],
      ['https://www.instagram.com/boulangerie_martin/', 'instagram'],
      ['https://www.instagram.com/boulangerie.martin/', 'instagram'],
      ['https://www.tiktok.com/@boulangeriemartin', 'tiktok'],
      ['https://www.youtube.com/@boulangeriemartin', 'youtube'],
      ['https://www.youtube.com/channel/UC1234567890', 'youtube'],
      ['https://www.youtube.com/c/BoulangerieMartin', 'youtube'],
    ]
    for (const [url, network] of profiles) expect(classifySocialUrl(url), url).toBe(network)
  })

  it('ignores share/intent links, posts, videos and the networks’ home pages', () => {
    const ignored = [
      'https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Fsite.fr%2F',
      'https://www.facebook.com/sharer.php?u=x',
      'https://www.facebook.com/dialog/share?app_id=1',
      'https://www.facebook.com/',
      'https://www.facebook.com/plugins/page.php?href=x',
      'https://twitter.com/intent/tweet?url=https%3A%2F%2Fsite.fr%2F',
      'https://twitter.com/share?url=x',
      'https://x.com/',
      'https://twitter.com/boulmartin/status/123456',
      'https://www.linkedin.com/shareArticle?mini=true&url=x',
      'https://www.linkedin.com/sharing/share-offsite/?url=x',
      'https://www.linkedin.com/',
      'https://www.instagram.com/',
      'https://www.instagram.com/p/Cx123/',
      'https://www.tiktok.com/',
      'https://www.tiktok.com/@user/video/123',
      'https://www.youtube.com/watch?v=abc',
      'https://www.youtube.com/',
      'https://youtu.be/abc',
      'https://example.org/facebook',
      'mailto:a@b.fr',
    ]
    for (const url of ignored) expect(classifySocialUrl(url), url).toBeNull()
  })

  it('keeps the first profile per network, as linked', () => {
    const found: Record<string, string> = {}
    addSocialLinks(found, ['https://www.facebook.com/sharer/sharer.php?u=x', 'https://www.facebook.com/first#top', 'https://www.facebook.com/second', 'https://x.com/handle'])
    expect(found).toEqual({ facebook: 'https://www.facebook.com/first', twitter: 'https://x.com/handle' })
  })
})

describe('phones', () => {
  it('normalises valid numbers to international format', () => {
    expect(normalizePhone('02 98 44 12 34', 'FR')).toBe('+33 2 98 44 12 34')
    expect(normalizePhone('02.98.44.12.34', 'fr')).toBe('+33 2 98 44 12 34')
    expect(normalizePhone('+33298441234')).toBe('+33 2 98 44 12 34')
    expect(normalizePhone('0033 2 98 44 12 34')).toBe('+33 2 98 44 12 34')
    expect(normalizePhone('+33 (0)2 98 44 12 34')).toBe('+33 2 98 44 12 34')
    expect(normalizePhone('tel:+33298441234')).toBe('+33 2 98 44 12 34')
    expect(normalizePhone('06 12 34 56 78', 'FR')).toBe('+33 6 12 34 56 78')
    expect(normalizePhone('(650) 253-0000', 'US')).toBe('+1 650 253 0000')
    expect(normalizePhone('030 1234567', 'DE')).toBe('+49 30 1234567')
  })

  it('reads French overseas numbers written in the national format of a French lead', () => {
    expect(normalizePhone('0262 61 23 45', 'FR')).toBe('+262 262 61 23 45')
    expect(normalizePhone('0590 12 34 56', 'FR')).toBe('+590 590 12 34 56')
  })

  it('rejects invalid numbers and national numbers without a country', () => {
    expect(normalizePhone('01 23', 'FR')).toBeNull()
    expect(normalizePhone('00 00 00 00 00', 'FR')).toBeNull()
    expect(normalizePhone('hello', 'FR')).toBeNull()
    expect(normalizePhone('02 98 44 12 34')).toBeNull()
    expect(normalizePhone('02 98 44 12 34', 'ZZ')).toBeNull()
  })

  it('finds phone-shaped text but never SIRET, SIREN, postcodes or prices', () => {
    const text = 'SIRET : 648 651 107 00092\nRCS Quimper B 648 651 107\n29200 Brest\nTél : 02 98 44 12 34 ou +33 6 12 34 56 78 · 1 250 €'
    const found = phonesFromText(text).map((p) => normalizePhone(p, 'FR'))
    expect(found).toEqual(['+33 2 98 44 12 34', '+33 6 12 34 56 78'])
  })

  it('guesses the country of national numbers from a ccTLD', () => {
    expect(countryFromHostname('www.boulangerie.fr')).toBe('FR')
    expect(countryFromHostname('shop.co.uk')).toBe('GB')
    expect(countryFromHostname('example.com')).toBeUndefined()
    expect(countryFromHostname('startup.io')).toBeUndefined()
  })
})

describe('SIRET', () => {
  it('checks Luhn on SIREN and SIRET', () => {
    expect(luhnValid('732829320')).toBe(true)
    expect(isValidSiren('732829320')).toBe(true)
    expect(isValidSiren('732829321')).toBe(false)
    expect(isValidSiret('73282932000074')).toBe(true)
    expect(isValidSiret('73282932000075')).toBe(false)
    expect(isValidSiret('00000000000000')).toBe(false)
    expect(isValidSiret('7328293200007')).toBe(false)
    // La Poste establishments: digit sum divisible by 5 instead of Luhn.
    expect(isValidSiret('35600000000001')).toBe(true)
    expect(isValidSiret('35600000000002')).toBe(false)
    expect(cleanSiret('732 829 320 00074')).toBe('73282932000074')
    expect(cleanSiret('732.829.320.00075')).toBeNull()
  })

  it('reads the SIRET of a legal notice, else a SIREN from an RCS mention', () => {
    expect(companyIdsFromText('Éditeur : SARL MARTIN\nSIRET : 732 829 320 00074\nRCS Paris B 732 829 320')).toEqual({ siret: '73282932000074', siren: '732829320' })
    expect(companyIdsFromText('N° SIRET: 73282932000074')).toEqual({ siret: '73282932000074', siren: '732829320' })
    expect(companyIdsFromText('SIRET : 732 829 320 00075')).toEqual({ siret: null, siren: null })
    expect(companyIdsFromText('RCS Quimper B 732 829 320')).toEqual({ siret: null, siren: '732829320' })
    expect(companyIdsFromText('Tél 02 98 44 12 34')).toEqual({ siret: null, siren: null })
  })
})

describe('page parsing', () => {
  const html = `<!doctype html><html lang="fr"><head><title>Boulangerie &amp; Co</title>
<meta name="generator" content="WordPress 6.4.3"><meta property="og:site_name" content="Boulangerie">
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"LocalBusiness","email":"mailto:contact@boul.fr","telephone":"+33 2 98 44 12 34","sameAs":["https://www.facebook.com/boul","https://www.instagram.com/boul/"]}]}</script>
<script type="application/ld+json">{ broken json </script>
<script src="/wp-includes/js/jquery/jquery.min.js?ver=3.7.1"></script>
<style>.email:after{content:"hidden@style.fr"}</style></head>
<body><p>Écrivez-nous</p><p>info@boul.fr</p><a href="contact">Nous <b>contacter</b></a>
<a href="/cdn-cgi/l/email-protection#${cloudflareEncode('cf@boul.fr', 0x33)}"><span data-cfemail="${cloudflareEncode('cf2@boul.fr', 0x44)}">[email&#160;protected]</span></a>
<input placeholder="votre@email.fr"><script>var dsn="https://abc@o1.ingest.sentry.io/1"</script>
<a href="tel:+33298441234">02 98 44 12 34</a></body></html>`

  it('collects text, links, scripts, meta, JSON-LD and Cloudflare payloads', () => {
    const page = parsePage(html, 'https://boul.fr/accueil/')
    expect(page.title).toBe('Boulangerie & Co')
    expect(page.lang).toBe('fr')
    expect(page.text).toContain('info@boul.fr')
    expect(page.text).not.toContain('hidden@style.fr')
    expect(page.text).not.toContain('sentry')
    expect(page.text).not.toContain('votre@email.fr')
    expect(page.links.find((l) => l.href === 'contact')).toEqual({ href: 'contact', url: 'https://boul.fr/accueil/contact', text: 'Nous contacter', credit: false, fallback: false })
    expect(page.scriptSrc).toEqual(['https://boul.fr/wp-includes/js/jquery/jquery.min.js?ver=3.7.1'])
    expect(page.meta.generator).toEqual(['WordPress 6.4.3'])
    expect(page.meta['og:site_name']).toEqual(['Boulangerie'])
    expect(page.jsonLd).toHaveLength(1)
    expect(jsonLdStrings(page.jsonLd, 'email')).toEqual(['mailto:contact@boul.fr'])
    expect(jsonLdStrings(page.jsonLd, 'sameAs')).toEqual(['https://www.facebook.com/boul', 'https://www.instagram.com/boul/'])
    expect(page.cfEmails.map(decodeCfEmail)).toEqual(['cf@boul.fr', 'cf2@boul.fr'])
  })

  it('decodes bodies by declared charset, meta charset or a windows-1252 fallback', () => {
    const latin = Buffer.from('<p>Société Générale</p>', 'latin1')
    expect(decodeHtml(latin, 'text/html; charset=iso-8859-1')).toBe('<p>Société Générale</p>')
    expect(decodeHtml(Buffer.concat([Buffer.from('<meta charset="windows-1252">'), latin]), 'text/html')).toContain('Société')
    expect(decodeHtml(latin, 'text/html')).toBe('<p>Société Générale</p>')
    expect(decodeHtml(Buffer.from('<p>Société</p>', 'utf8'), undefined)).toBe('<p>Société</p>')
  })
})

describe('technologies (Wappalyzer fingerprints)', () => {
  it('detects from meta, script URLs and headers, resolves implies and groups by category', () => {
    const found = detectTechnologies({
      url: 'https://boul.fr/',
      html: '<html><head><meta name="generator" content="WordPress 6.4.3"></head><body></body></html>',
      scriptSrc: ['https://boul.fr/wp-includes/js/jquery/jquery-3.7.1.min.js', 'https://www.googletagmanager.com/gtag/js?id=G-ABC'],
      meta: { generator: ['WordPress 6.4.3'] },
      headers: { Server: 'nginx/1.24.0', 'X-Powered-By': 'PHP/8.2.15' },
      cookies: ['PHPSESSID=abc; path=/'],
    })
    const byName = new Map(found.map((t) => [t.name, t]))
    expect(byName.get('WordPress')?.version).toBe('6.4.3')
    expect(byName.get('jQuery')?.version).toBe('3.7.1')
    expect(byName.get('Nginx')?.version).toBe('1.24.0')
    expect(byName.get('PHP')?.version).toBe('8.2.15')
    expect(byName.has('Google Analytics')).toBe(true)
    expect(byName.has('MySQL')).toBe(true) // implied by WordPress
    const grouped = groupByCategory(found)
    expect(grouped.CMS).toBe('WordPress')
    expect(grouped['JavaScript libraries']).toBe('jQuery')
    expect(grouped['Programming languages']).toBe('PHP')
  })

  it('returns nothing for a bare page', () => {
    expect(detectTechnologies({ url: 'https://a.fr/', html: '<p>hi</p>', scriptSrc: [], meta: {}, headers: {} })).toEqual([])
  })

  it('prefilters patterns by the literal text any match must contain', () => {
    expect(requiredLiterals('\\/wp-(?:content|includes)\\/')).toEqual(['/wp-'])
    expect(requiredLiterals('googletagmanager\\.com\\/gtag\\/js')).toEqual(['googletagmanager.com/gtag/js'])
    expect(requiredLiterals('cdn\\.shopify\\.com|sdks\\.shopifycdn\\.com')).toEqual(['cdn.shopify.com', 'sdks.shopifycdn.com'])
    expect(requiredLiterals('ab?c')).toBeNull()
    expect(requiredLiterals('(?:foo|bar)')).toEqual(['foo', 'bar'])
    expect(requiredLiterals('jquery(?:-(\\d+))?\\.js')).toEqual(['jquery'])
    expect(requiredLiterals('Abc{1,250}Defg')).toEqual(['defg'])
    // Required groups give their alternatives when no literal run is long enough.
    expect(requiredLiterals('<[^>]+(?:assets|downloads)\\.(?:ct?fassets\\.net|contentful\\.com)')).toEqual(['fassets.net', 'contentful.com'])
    expect(requiredLiterals('(?:<div[^>]+id="wrapper_r"|<(?:link|script)[^>]+(?:feed|components)\\/com_)')).toEqual(['id="wrapper_r"', '/com_'])
    expect(requiredLiterals('x(?=abcd)')).toBeNull()
    expect(requiredLiterals('(?:abcd)?x')).toBeNull()
  })

  it('never prefilters out a string the pattern matches', () => {
    const cases: Array<[string, string]> = [
      ['(?:Diese <a href=[^>]+bigware\\.de|<a href=[^>]+\\/main_bigware_\\d+\\.php)', '<a href="/x/main_bigware_12.php">'],
      ['<[^>]+(?:assets|downloads|images|videos)\\.(?:ct?fassets\\.net|contentful\\.com)', '<img src="https://images.ctfassets.net/a.png">'],
      ['<[^>]+(?:assets|downloads|images|videos)\\.(?:ct?fassets\\.net|contentful\\.com)', '<img src="https://videos.contentful.com/a.mp4">'],
      ['(?:<div[^>]+id="wrapper_r"|<(?:link|script)[^>]+(?:feed|components)\\/com_|<table[^>]+class="pill)', '<script src="/components/com_k2/k2.js">'],
      ['(?:\\/|-)bootstrap(?:[^/]*?([0-9a-fA-F]{7,40}|[\\d]+(?:\\.[\\d]+(?:\\.[\\d]+)?)?)|)[^/]*?(?:\\.min)?\\.js', 'https://cdn.jsdelivr.net/npm/bootstrap@5.3.2/dist/js/bootstrap.bundle.min.js'],
      ['jquery(?:-(\\d+\\.\\d+\\.\\d+))?(?:\\.min)?\\.js', 'https://code.jquery.com/jquery-3.7.1.min.js'],
      ['Powered by <a[^>]+>Django ?([\\d.]+)?<\\/a>', 'Powered by <a href="x">Django 4.2</a>'],
    ]
    for (const [pattern, text] of cases) {
      expect(new RegExp(pattern, 'i').test(text), pattern).toBe(true)
      const literals = requiredLiterals(pattern)
      expect(literals === null || literals.some((l) => text.toLowerCase().includes(l)), `${pattern} → ${literals}`).toBe(true)
    }
  })
})

describe('registry matching helpers', () => {
  it('normalises names and scores similarity', () => {
    expect(normalizeCompanyName('Société Générale & Cie')).toBe('societe generale et cie')
    expect(nameSimilarity('Boulangerie Martin', 'SARL BOULANGERIE MARTIN')).toBe(1)
    expect(nameSimilarity('Boulangerie Martin', 'MARTIN')).toBeGreaterThan(0.7)
    expect(nameSimilarity('Boulangerie Martin', 'BOULANGERIE DUPONT')).toBeLessThan(0.35)
    expect(nameSimilarity('Le Fournil', 'LEFOURNIL')).toBe(1)
    expect(nameSimilarity('Garage Lemoine', 'GARAGE LEMOINNE')).toBe(1)
  })

  it('parses Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('3')).toBe(3)
    expect(parseRetryAfter(new Date(Date.now() + 5_000).toUTCString())).toBeGreaterThanOrEqual(4)
    expect(parseRetryAfter('soon')).toBeUndefined()
    expect(parseRetryAfter(null)).toBeUndefined()
  })
})
