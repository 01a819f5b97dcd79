/**
 * Sitemaps (sitemaps.org), read when a homepage's links do not lead to a contact and a legal page: a urlset lists
 * pages, a sitemap index lists other sitemaps (WordPress's /wp-sitemap.xml, Yoast's /sitemap_index.xml). Parsed with
 * htmlparser2 in XML mode, which streams and forgives: a truncated or malformed file still gives the addresses
 * before the damage, and reading stops at a fixed number of addresses whatever the file's size.
 */
import { Parser } from 'htmlparser2'

export interface ParsedSitemap {
  /** index: `urls` are sitemaps; urlset: `urls` are pages. */
  kind: 'urlset' | 'index'
  urls: string[]
}

export const MAX_SITEMAP_URLS = 5_000

/** The <loc> addresses of a sitemap or sitemap index, at most `maxUrls`, in document order. */
export function parseSitemap(xml: string, maxUrls = MAX_SITEMAP_URLS): ParsedSitemap {
  let kind: ParsedSitemap['kind'] = 'urlset'
  const urls: string[] = []
  let loc: string[] | null = null
  const parser = new Parser(
    {
      onopentag(name) {
        // Namespaced files ("<sm:loc>") are rare but valid.
        const local = name.slice(name.indexOf(':') + 1)
        if (local === 'sitemapindex') kind = 'index'
        if (local === 'loc' && urls.length < maxUrls) loc = []
      },
      ontext(data) {
        if (loc && loc.length < 50) loc.push(data)
      },
      onclosetag(name) {
        if (!loc || name.slice(name.indexOf(':') + 1) !== 'loc') return
        const url = loc.join('').trim()
        loc = null
        if (url) urls.push(url)
        if (urls.length >= maxUrls) parser.pause()
      },
    },
    { xmlMode: true, decodeEntities: true },
  )
  parser.write(xml)
  if (urls.length < maxUrls) parser.end()
  return { kind, urls }
}

// Child sitemaps of an index that list a site's pages, and those that list everything else (posts, products, media).
const PAGE_SITEMAP = /(?:^|[-_/])(?:pages?|seiten|paginas|pagine)(?:[-_.]|sitemap)|page-sitemap|sitemap-pages?/i
const OTHER_SITEMAP = /posts?(?:[-_.]|sitemap)|products?|produits|categor|tags?[-_.]|authors?|users?|images?|videos?|news|taxonom|attachment|portfolio|events?|shop|boutique/i

/**
 * The one child of an index worth reading for contact and legal pages: a sitemap of pages, else the first that is
 * not of posts, products, categories or media; null when every child is one of those.
 */
export function pageSitemapOf(children: string[]): string | null {
  return children.find((url) => PAGE_SITEMAP.test(pathOf(url))) ?? children.find((url) => !OTHER_SITEMAP.test(pathOf(url))) ?? null
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname
  } catch {
    return url
  }
}
