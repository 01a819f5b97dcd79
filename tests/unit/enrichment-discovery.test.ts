import { describe, expect, it } from 'vitest'
import { missingKinds, rankCandidates, scoreLink } from '#app/.server/enrichment/page-discovery.ts'
import { MAX_SITEMAP_URLS, pageSitemapOf, parseSitemap } from '#app/.server/enrichment/sitemap.ts'

const kindOf = (href: string, text = '') => scoreLink(new URL(href, 'https://site.example/'), text)?.kind ?? null

describe('contact / legal / about pages named in six languages', () => {
  it.each([
    ['/?page_id=12', 'Contatti', 'contact'],
    ['/?p=7', 'Contattaci', 'contact'],
    ['/seite-3', 'Kontakt', 'contact'],
    ['/pagina/4', 'Contáctenos', 'contact'],
    ['/node/9', 'Neem contact op', 'contact'],
    ['/infos', 'Nous joindre', 'contact'],
    ['/page/2', 'Contactez-nous', 'contact'],
    ['/x', 'Impressum', 'legal'],
    ['/x', 'Aviso legal', 'legal'],
    ['/x', 'Note legali', 'legal'],
    ['/x', 'Informazioni legali', 'legal'],
    ['/x', 'Wettelijke vermeldingen', 'legal'],
    ['/x', 'Colofon', 'legal'],
    ['/x', 'Mentions Légales', 'legal'],
    ['/x', 'Imprint', 'legal'],
    ['/x', 'Über uns', 'about'],
    ['/x', 'Chi siamo', 'about'],
    ['/x', 'Qui sommes-nous ?', 'about'],
  ])('%s "%s" is a %s page', (href, text, kind) => {
    expect(kindOf(href, text)).toBe(kind)
  })

  it('reads the address when the text says nothing, accents and separators aside', () => {
    expect(kindOf('/mentions_l%C3%A9gales.html', 'Cliquez ici')).toBe('legal')
    expect(kindOf('/nl/neem-contact-op/', '')).toBe('contact')
    expect(kindOf('/es/aviso-legal', '')).toBe('legal')
    expect(kindOf('/kontakt.php', '')).toBe('contact')
  })

  it('the link text wins over the address, and names the surer match', () => {
    expect(scoreLink(new URL('https://s.example/page-2'), 'Contact')).toEqual({ kind: 'contact', score: 2 })
    expect(scoreLink(new URL('https://s.example/contact'), 'Écrivez-nous')).toEqual({ kind: 'contact', score: 1 })
  })

  it('leaves out products and words that only contain a page name', () => {
    for (const [href, text] of [
      ['/lentilles-de-contact', 'Lentilles de contact'],
      ['/shop/contact-lenses', 'Contact lenses'],
      ['/kontaktlinsen', 'Kontaktlinsen'],
      ['/lenti-a-contatto', 'Lenti a contatto'],
      ['/paiement', 'Paiement sans contact'],
      ['/services/paralegal', 'Paralegal services'],
      ['/contactor-relays', 'Contactors'],
      ['/blog', 'Read our article about bread and how to contact the baker and a lot more words here'],
    ]) {
      expect(kindOf(href as string, text), `${href} ${text}`).toBeNull()
    }
  })

  it('ranks contact and legal pages alternately, surest first, about pages last, each address once', () => {
    const ranked = rankCandidates([
      { url: 'https://s.example/a-propos', kind: 'about', score: 2 },
      { url: 'https://s.example/contact-form', kind: 'contact', score: 1 },
      { url: 'https://s.example/infos', kind: 'contact', score: 2 },
      { url: 'https://s.example/impressum', kind: 'legal', score: 2 },
      { url: 'https://s.example/infos', kind: 'legal', score: 1 },
    ])
    expect(ranked.map((c) => `${c.kind} ${c.url.slice(18)}`)).toEqual(['contact infos', 'legal impressum', 'contact contact-form', 'about a-propos'])
  })

  it('a sitemap is worth reading while a contact or a legal page is missing', () => {
    expect(missingKinds([{ url: 'https://s.example/contact', kind: 'contact' }])).toEqual(['legal'])
    expect(missingKinds([{ url: 'u', kind: 'contact' }, { url: 'v', kind: 'legal' }])).toEqual([])
  })
})

describe('sitemaps', () => {
  it('reads the addresses of a urlset, entities decoded, namespaces aside', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
      <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
        <url><loc>https://s.example/</loc><lastmod>2024-01-01</lastmod></url>
        <url><loc> https://s.example/?page_id=12&amp;lang=it </loc></url>
        <sm:url xmlns:sm="x"><sm:loc>https://s.example/impressum</sm:loc></sm:url>
      </urlset>`
    expect(parseSitemap(xml)).toEqual({ kind: 'urlset', urls: ['https://s.example/', 'https://s.example/?page_id=12&lang=it', 'https://s.example/impressum'] })
  })

  it('tells an index from a urlset and picks its sitemap of pages', () => {
    const index = parseSitemap(`<sitemapindex><sitemap><loc>https://s.example/wp-sitemap-posts-post-1.xml</loc></sitemap>
      <sitemap><loc>https://s.example/wp-sitemap-posts-page-1.xml</loc></sitemap></sitemapindex>`)
    expect(index.kind).toBe('index')
    expect(pageSitemapOf(index.urls)).toBe('https://s.example/wp-sitemap-posts-page-1.xml')
    expect(pageSitemapOf(['https://s.example/post-sitemap.xml', 'https://s.example/page-sitemap.xml'])).toBe('https://s.example/page-sitemap.xml')
    expect(pageSitemapOf(['https://s.example/product-sitemap.xml', 'https://s.example/sitemap-misc.xml'])).toBe('https://s.example/sitemap-misc.xml')
    expect(pageSitemapOf(['https://s.example/product-sitemap.xml', 'https://s.example/category-sitemap.xml'])).toBeNull()
  })

  it('keeps what comes before the damage in a malformed or truncated file', () => {
    expect(parseSitemap('<urlset><url><loc>https://s.example/kontakt</loc></url><url><loc>https://s.example/imp').urls).toEqual(['https://s.example/kontakt', 'https://s.example/imp'])
    expect(parseSitemap('<html><body>Not found</body></html>').urls).toEqual([])
    expect(parseSitemap('<urlset><url><loc>https://s.example/a</loc><<<>></url></urlset>').urls).toEqual(['https://s.example/a'])
  })

  it('stops at a fixed number of addresses however large the file', () => {
    const huge = `<urlset>${Array.from({ length: MAX_SITEMAP_URLS + 500 }, (_, i) => `<url><loc>https://s.example/p${i}</loc></url>`).join('')}</urlset>`
    const { urls } = parseSitemap(huge)
    expect(urls).toHaveLength(MAX_SITEMAP_URLS)
    expect(urls.at(-1)).toBe(`https://s.example/p${MAX_SITEMAP_URLS - 1}`)
  })
})
