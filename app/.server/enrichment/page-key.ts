/**
 * One page, one fetch per lead. The same page is written many ways — "http://x.fr", "https://www.x.fr/",
 * "/index.html", "/#contact" — and a crawl that compared addresses as written fetched homepages twice (a "Contact"
 * link to "https://x.fr/#contact" from the homepage "https://www.x.fr/"). Pure functions: no I/O.
 */

const INDEX_FILE = /\/(?:index|default|home)\.(?:html?|php|aspx?)$/i

/**
 * The key of a page: host without "www.", port only when not the scheme's default, path without its trailing slash
 * or index file, query kept (a "?page_id=12" is another page), fragment and scheme ignored.
 */
export function pageKey(url: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return url
  }
  const host = parsed.hostname.toLowerCase().replace(/^www\./, '').replace(/\.$/, '')
  const path = parsed.pathname.replace(INDEX_FILE, '/').replace(/\/+$/, '')
  const query = parsed.search === '?' ? '' : parsed.search
  return `${host}${parsed.port ? `:${parsed.port}` : ''}${path}${query}`
}

const IP_LITERAL = /^(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:.]+\])$/i

/**
 * The addresses to try for a lead's homepage, in order. Sources store "x.fr" or "http://x.fr" for sites that have
 * long moved to https, and the http address then costs a redirect — a second request for the same homepage on every
 * such lead. So https is asked first and the address as given second (a site without TLS, or whose https answers an
 * error). An explicit port or an IP address is kept as written: a service on its own port, not a public site.
 */
export function homeAddresses(start: string): string[] {
  let url: URL
  try {
    url = new URL(start)
  } catch {
    return [start]
  }
  if (url.protocol !== 'http:' || url.port || IP_LITERAL.test(url.hostname) || !url.hostname.includes('.')) return [start]
  const secure = new URL(url.href)
  secure.protocol = 'https:'
  return [secure.href, start]
}
