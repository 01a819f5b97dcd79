// A site's domain as one canonical text: what the do-not-contact list, the CRM dedupe keys and the pages compare.
// Pure and light (no phone parsing): the push form in the browser uses it too.

const DOMAIN_RE = /^(?:[a-z\d](?:[a-z\d-]{0,61}[a-z\d])?\.)+[a-z][a-z\d-]{0,62}$/i

/** The host of a site or an address as written ("https://www.Example.fr/contact" → "example.fr"); null when none. */
export function websiteDomain(text: string): string | null {
  const withScheme = /^[a-z][a-z\d+.-]*:\/\//i.test(text) ? text : `https://${text}`
  try {
    const url = new URL(withScheme)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
    const host = url.hostname.toLowerCase().replace(/^www\./, '').replace(/\.$/, '')
    return DOMAIN_RE.test(host) ? host : null
  } catch {
    return null
  }
}
