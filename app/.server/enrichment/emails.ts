/**
 * Email extraction: mailto links, JSON-LD, visible text (with "[at]"/"(at)"/"[dot]" de-obfuscation) and Cloudflare
 * email protection, then junk filtering (asset names, placeholders, error-tracker DSNs, invalid syntax).
 */
import { domainToASCII } from 'node:url'

/** Cloudflare email protection: hex, the first byte is the XOR key of the following ones (UTF-8). */
export function decodeCfEmail(hex: string): string | null {
  const clean = hex.trim()
  if (!/^(?:[0-9a-f]{2}){2,}$/i.test(clean) || clean.length > 1024) return null
  const key = parseInt(clean.slice(0, 2), 16)
  const bytes = Buffer.alloc(clean.length / 2 - 1)
  for (let i = 2, j = 0; i < clean.length; i += 2, j++) bytes[j] = parseInt(clean.slice(i, i + 2), 16) ^ key
  return bytes.toString('utf8')
}

/**
 * Addresses of a mailto: URL ("mailto:a%40b.fr,c@d.fr?subject=…"), URI-decoded, query stripped. Sites also write
 * the address with a display name ("mailto:Plomberie Lejeune <info@…>", "mailto:%22Cabinet%22%20%3Cinfo%40…%3E") and
 * with slashes ("mailto://info@…"): the address inside the angle brackets is the one, the slashes are not part of it.
 */
export function emailsFromMailto(href: string): string[] {
  const match = /^\s*mailto:([^?#]*)/i.exec(href)
  if (!match) return []
  let target = match[1] as string
  try {
    target = decodeURIComponent(target)
  } catch {
    // keep the raw form
  }
  return target
    .split(/[,;](?=(?:[^"]*"[^"]*")*[^"]*$)/)
    .map((part) => (/<\s*([^<>\s]+@[^<>\s]+)\s*>/.exec(part)?.[1] ?? part).trim().replace(/^\/+/, ''))
    .filter(Boolean)
}

// at / arobase (fr) / arroba (es) / chiocciola (it) / ät (de); dot / point / punkt / punto.
const AT_WORDS = '(?:at|arobase|arroba|chiocciola|ät|@)'
const DOT_WORDS = '(?:dot|point|punkt|punto|\\.)'
const AT_FORMS = new RegExp(`\\s*(?:\\[\\s*${AT_WORDS}\\s*\\]|\\(\\s*${AT_WORDS}\\s*\\)|\\{\\s*${AT_WORDS}\\s*\\}|<\\s*at\\s*>)\\s*`, 'gi')
const DOT_FORMS = new RegExp(`\\s*(?:\\[\\s*${DOT_WORDS}\\s*\\]|\\(\\s*${DOT_WORDS}\\s*\\)|\\{\\s*${DOT_WORDS}\\s*\\})\\s*`, 'gi')
// "agence arobase atelier-ma.fr", "julie point perrin arobase site point fr": "arobase" is never prose, so a real dot
// in the domain is enough; the local part may itself be spelled with "point".
const AROBASE = /\b([a-z0-9][a-z0-9_%+-]*(?:(?:\s+point\s+|\.)[a-z0-9_%+-]+)*)\s+arobase\s+([a-z0-9-]+(?:(?:\s+point\s+|\.)[a-z0-9-]+)+)\b/gi
// "contact at domain dot fr": only with both words, so "meet us at example.com" is not read as an address.
const SPELLED = /\b([a-z0-9][a-z0-9._%+-]*)\s+(?:at|arobase)\s+([a-z0-9-]+(?:\s+(?:dot|point)\s+[a-z0-9-]+)+)\b/gi
const EMAIL_IN_TEXT = /[a-z0-9][a-z0-9._%+-]*@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+/gi

/** Rewrites the common obfuscations into plain addresses. */
export function deobfuscate(text: string): string {
  return text
    .replace(AROBASE, (_m, local: string, domain: string) => `${local}@${domain}`.replace(/\s+point\s+/gi, '.'))
    .replace(SPELLED, (_m, local: string, domain: string) => `${local}@${domain.replace(/\s+(?:dot|point)\s+/gi, '.')}`)
    .replace(AT_FORMS, '@')
    .replace(DOT_FORMS, '.')
}

/** Raw candidates found in visible text (not yet cleaned). */
export function emailsFromText(text: string): string[] {
  const out: string[] = []
  for (const match of deobfuscate(text).matchAll(EMAIL_IN_TEXT)) {
    let candidate = match[0]
    // "contact@site.frTéléphone" (two text nodes glued): cut the TLD where a capital follows lower case.
    const lastDot = candidate.lastIndexOf('.')
    const tld = candidate.slice(lastDot + 1)
    const glued = /^([a-z]{2,})[A-Z]/.exec(tld)
    if (glued) candidate = candidate.slice(0, lastDot + 1) + glued[1]
    out.push(candidate)
  }
  return out
}

const ASSET_EXTENSIONS = /\.(?:png|jpe?g|gif|webp|svg|bmp|ico|avif|tiff?|heic|css|js|mjs|map|json|xml|mp4|webm|mp3|woff2?|ttf|eot|pdf|php|html?)$/
const PLACEHOLDER_DOMAINS =
  /^(?:[a-z0-9-]+\.)*(?:example|exemple|beispiel|ejemplo|esempio|your-?domain|yourdomain|votre-?domaine|votredomaine|votre-?site|votresite|yoursite|your-?company|mydomain|mondomaine|monsite|mysite|domain|domaine|email|e-mail|adresse|test|company|entreprise|societe|sample|placeholder|website|ihre-?firma|ihre-?domain|esempio|ejemplo|voorbeeld|tu-?empresa|tu-?dominio)\.[a-z]{2,}$/
const PLACEHOLDER_LOCALS =
  /^(?:votre|vous|your|you|yourname|your[._-]?name|youremail|your[._-]?email|your[._-]?mail|votre[._-]?(?:e-?mail|adresse|nom|mail)|nom|name|prenom[._-]?nom|firstname[._-]?lastname|first[._-]?last|john[._-]?doe|jane[._-]?doe|jdoe|user|username|utilisateur|example|exemple|someone|quelquun|x+|jean[._-]?dupont|max[._-]?mustermann|erika[._-]?mustermann|mario[._-]?rossi|juan[._-]?perez|jan[._-]?jansen|vorname[._-]?nachname|nom[._-]?prenom)$/
/**
 * Site builders, e-commerce platforms, theme vendors and web hosts: their addresses show up in templates, credits and
 * legal notices ("Hébergeur : OVH … support@ovh.com"), never as the business's.
 */
const PLATFORM_DOMAINS =
  /(?:^|\.)(?:ovh\.(?:com|net|fr)|ovhcloud\.com|o2switch\.fr|ionos\.(?:com|fr|de)|1and1\.fr|gandi\.net|hostinger\.(?:com|fr)|lws\.fr|infomaniak\.com|combell\.(?:com|be|nl)|one\.com|hostpoint\.ch|netlify\.com|vercel\.com|godaddy\.com|siteground\.com|planethoster\.(?:com|net)|alwaysdata\.com|scaleway\.com|prestashop\.com|shopify\.com|wix\.com|squarespace\.com|jimdo\.com|webflow\.com|wordpress\.(?:com|org)|elegantthemes\.com|wpastra\.com|brainstormforce\.com|themegrill\.com|themeisle\.com|oceanwp\.org|generatepress\.com|kadencewp\.com|elementor\.com|themeforest\.net|envato\.com|themefusion\.com|woocommerce\.com)$/
const SERVICE_DOMAINS = /(?:^|\.)(?:sentry\.io|sentry-next\.wixpress\.com|wixpress\.com|sentry\.wixpress\.com|ingest\.sentry\.io|sentry\.dev|bugsnag\.com|raygun\.io)$/
const NO_REPLY = /^(?:no-?reply|do-?not-?reply|donotreply|ne-?pas-?repondre|mailer-daemon)(?:[._+-].*)?$/
const LOCAL_SYNTAX = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/
const DOMAIN_SYNTAX = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/

/** Why an address (already lower-cased and trimmed) is not a business contact, or null when it looks real. */
export function junkEmailReason(email: string): string | null {
  if (email.length > 254) return 'too long'
  const at = email.lastIndexOf('@')
  if (at <= 0 || at === email.length - 1) return 'invalid syntax'
  const local = email.slice(0, at)
  const domain = email.slice(at + 1)
  if (local.length > 64 || !LOCAL_SYNTAX.test(local) || !DOMAIN_SYNTAX.test(domain)) return 'invalid syntax'
  if (ASSET_EXTENSIONS.test(domain) || /@[1-9]x\b/.test(email) || /^[1-9]x[.-]/.test(domain)) return 'file name'
  if (PLACEHOLDER_DOMAINS.test(domain) || PLACEHOLDER_LOCALS.test(local)) return 'placeholder'
  if (SERVICE_DOMAINS.test(domain) || domain.includes('.ingest.') || /^[0-9a-f]{24,}$/.test(local)) return 'service address'
  if (NO_REPLY.test(local)) return 'no-reply'
  if (PLATFORM_DOMAINS.test(domain)) return 'platform address'
  return null
}

/** A clean, lower-case address, or null when `raw` is not a usable business contact. */
export function cleanEmail(raw: string): string | null {
  let email = raw.trim().replace(/^mailto:/i, '')
  try {
    if (email.includes('%')) email = decodeURIComponent(email)
  } catch {
    // keep
  }
  email = email.replace(/^[\s<("'[]+|[\s>)"'\].,;:!?]+$/g, '').toLowerCase()
  const at = email.lastIndexOf('@')
  if (at > 0) {
    const domain = email.slice(at + 1)
    // Internationalised domains are kept in their ASCII (punycode) form.
    if (/[^\p{ASCII}]/u.test(domain)) {
      const ascii = domainToASCII(domain)
      if (!ascii) return null
      email = `${email.slice(0, at)}@${ascii}`
    }
  }
  return junkEmailReason(email) ? null : email
}

/** Adds clean addresses to `into`, keeping first-seen order. */
export function addEmails(into: Set<string>, candidates: Iterable<string>) {
  for (const candidate of candidates) {
    const email = cleanEmail(candidate)
    if (email) into.add(email)
  }
}

/** The address is at the site's own domain ("contact@boulangerie.fr" on www.boulangerie.fr): never an agency's. */
export function isSiteAddress(email: string, pageUrl: string): boolean {
  let host: string
  try {
    host = new URL(pageUrl).hostname.toLowerCase().replace(/^www\./, '')
  } catch {
    return false
  }
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase()
  return domain === host || host.endsWith(`.${domain}`)
}
