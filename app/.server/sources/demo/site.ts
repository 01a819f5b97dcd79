/**
 * The content of a demo business website, derived from its slug alone (see identity.ts). This is the "truth"
 * that enrichment tests assert against: which emails, social links and technologies a correct crawler finds there,
 * and which decoys it must ignore.
 */
import { demoDetails, demoMobile, parseDemoSlug } from './identity.ts'
import { cityName } from '#app/.server/geo/france.ts'
import { FIRST_NAMES, SURNAMES, prettifySlugName, slugify } from './vocabulary.ts'
import { rngFor } from './prng.ts'

type SocialNetwork = 'facebook' | 'instagram' | 'linkedin' | 'twitter' | 'tiktok'

/** How the contact email is written in the page, each one a technique real sites use. */
type EmailMarkup =
  | 'mailto' // <a href="mailto:…">
  | 'mailto-encoded' // <a href="mailto:contact%40…?subject=…"> (URI-encoded, with a query to strip)
  | 'obfuscated' // "contact [at] domain [dot] fr" text
  | 'cloudflare' // Cloudflare email protection: data-cfemail, first byte is the XOR key
  | 'json-ld' // only in schema.org JSON-LD (email + sameAs)
  | 'none'

type SiteStack = 'wordpress' | 'bootstrap' | 'wix' | 'shopify' | 'joomla' | 'prestashop'

/** Names as Wappalyzer-format fingerprint sets spell them. */
interface DemoSiteTechnology {
  name: string
  version?: string
}

export interface DemoSiteTruth {
  slug: string
  name: string
  /** Legal name printed in the legal notice ("SARL BOULANGERIE MARTIN"). */
  legalName: string
  /** Domain of the business's own addresses: emails use it even though the site is served by the demo server. */
  emailDomain: string
  streetAddress: string | null
  postalCode: string | null
  city: string | null
  /** National format, as printed (null outside France: those sites show no phone). */
  phone: string | null
  /** A mobile printed on the contact page only, next to the main number (national format), or null. */
  mobile: string | null
  /** Every real contact address on the site's public pages, lower case, primary first. */
  emails: string[]
  emailMarkup: EmailMarkup
  /** network → profile URL, exactly as linked. */
  socialMedia: Partial<Record<SocialNetwork, string>>
  /** Where the social links are: footer <a> links, or only JSON-LD sameAs. */
  socialMarkup: 'links' | 'json-ld'
  /**
   * Technologies evidenced directly by the HTML (meta generator, script src, stylesheet) or response headers. A
   * detector may report more through its "implies" rules (e.g. MySQL from WordPress).
   */
  technologies: DemoSiteTechnology[]
  stack: SiteStack
  /** 14 digits, printed in the legal notice; null when the notice has none. */
  siret: string | null
  /** robots.txt disallows this site's /private/ pages, which hold {@link privateEmail}. */
  robotsDisallowPrivate: boolean
  /** Only on the robots-disallowed /private/contact page: a crawler that respects robots.txt never sees it. */
  privateEmail: string | null
  /** Present in the pages but not the business's: a correct extractor reports none of these. */
  decoys: { emails: string[]; socialLinks: string[] }
  /** Response headers carrying technology fingerprints (server software, platform ids). */
  headers: Record<string, string>
  /** Google Analytics measurement id when the site loads gtag.js. */
  analyticsId: string | null
}

export const FREE_MAIL = ['orange.fr', 'gmail.com', 'wanadoo.fr', 'free.fr', 'sfr.fr', 'laposte.net', 'outlook.fr']
const PRIMARY_LOCALS = ['contact', 'bonjour', 'info', 'accueil']
const SECONDARY_LOCALS = ['commandes', 'reservation', 'devis', 'secretariat', 'compta']

/** Last characters of slugs whose /private pages robots.txt disallows (a third of all sites). */
const ROBOTS_PRIVATE_SUFFIXES = ['0', '3', '6', '9', 'c', 'f', 'i', 'l', 'o', 'r', 'u', 'x']

function trimLabel(label: string, max: number): string {
  return label.length <= max ? label : label.slice(0, max).replace(/-[^-]*$/, '')
}

function pickSocials(seed: number, handleBase: string): Partial<Record<SocialNetwork, string>> {
  const rng = rngFor(seed, 'socials')
  const compact = handleBase.replace(/-/g, '')
  const short = compact.slice(0, 15)
  const socials: Partial<Record<SocialNetwork, string>> = {}
  if (rng.chance(0.65)) socials.facebook = `https://www.facebook.com/${compact}`
  if (rng.chance(0.55)) socials.instagram = `https://www.instagram.com/${handleBase.replace(/-/g, rng.chance(0.5) ? '.' : '_')}/`
  if (rng.chance(0.3)) socials.linkedin = `https://www.linkedin.com/company/${handleBase}`
  if (rng.chance(0.2)) socials.twitter = `https://${rng.chance(0.5) ? 'x.com' : 'twitter.com'}/${short}`
  if (rng.chance(0.12)) socials.tiktok = `https://www.tiktok.com/@${compact}`
  return socials
}

function pickTechnologies(seed: number, emailMarkup: EmailMarkup) {
  const rng = rngFor(seed, 'stack')
  const stack = rng.weighted<SiteStack>([['wordpress', 40], ['bootstrap', 22], ['wix', 12], ['shopify', 10], ['joomla', 8], ['prestashop', 8]])
  const technologies: DemoSiteTechnology[] = []
  const headers: Record<string, string> = {}
  const php = rng.pick(['8.1.27', '8.2.15', '8.3.4', '7.4.33'])
  const jquery = rng.pick(['3.7.1', '3.6.4', '3.5.1'])
  let versions: { platform?: string; jquery?: string } = {}
  switch (stack) {
    case 'wordpress': {
      const wp = rng.pick(['6.2.3', '6.3.2', '6.4.3', '6.5.2'])
      versions = { platform: wp, jquery }
      technologies.push({ name: 'WordPress', version: wp }, { name: 'jQuery', version: jquery }, { name: 'PHP', version: php })
      headers['X-Powered-By'] = `PHP/${php}`
      break
    }
    case 'bootstrap': {
      const bootstrap = rng.pick(['5.3.2', '5.2.3', '4.6.2'])
      const withJquery = rng.chance(0.6)
      versions = { platform: bootstrap, jquery: withJquery ? jquery : undefined }
      technologies.push({ name: 'Bootstrap', version: bootstrap })
      if (withJquery) technologies.push({ name: 'jQuery', version: jquery })
      break
    }
    case 'wix':
      technologies.push({ name: 'Wix' })
      headers['X-Wix-Request-Id'] = `${seed.toString(16)}.${rng.int(1000, 9999)}`
      break
    case 'shopify':
      technologies.push({ name: 'Shopify' })
      headers['X-ShopId'] = String(rng.int(10_000_000, 89_999_999))
      headers['X-Shopify-Stage'] = 'production'
      break
    case 'joomla':
      technologies.push({ name: 'Joomla' }, { name: 'PHP', version: php })
      headers['X-Powered-By'] = `PHP/${php}`
      break
    case 'prestashop':
      versions = { jquery }
      technologies.push({ name: 'PrestaShop' }, { name: 'jQuery', version: jquery }, { name: 'PHP', version: php })
      headers['X-Powered-By'] = `PHP/${php}`
      headers['Powered-By'] = 'Prestashop'
      break
  }
  // Cloudflare email protection only exists behind Cloudflare, so those sites carry its headers.
  if (emailMarkup === 'cloudflare') {
    technologies.push({ name: 'Cloudflare' })
    headers['Server'] = 'cloudflare'
    headers['CF-RAY'] = `${seed.toString(16).padStart(8, '0')}${rng.int(1000, 9999)}-CDG`
  } else if (stack !== 'wix' && stack !== 'shopify' && rng.chance(0.6)) {
    const nginx = rng.pick(['1.24.0', '1.22.1', '1.18.0'])
    technologies.push({ name: 'Nginx', version: nginx })
    headers['Server'] = `nginx/${nginx}`
  }
  const analyticsId = rng.chance(0.5) ? `G-${Array.from({ length: 10 }, () => rng.pick([...'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789'])).join('')}` : null
  if (analyticsId) technologies.push({ name: 'Google Analytics' })
  return { stack, technologies, headers, analyticsId, versions }
}

/** Full model of a demo site: the public truth plus what the renderer needs. */
export interface DemoSite extends DemoSiteTruth {
  seed: number
  foundedYear: number
  publisher: string
  versions: { platform?: string; jquery?: string }
  obfuscationStyle: 0 | 1 | 2
}

export function demoSite(slug: string): DemoSite {
  const { nameSlug, commune, seed } = parseDemoSlug(slug)
  const details = demoDetails(seed, commune)
  const name = prettifySlugName(nameSlug)
  const rng = rngFor(seed, 'site')

  const label = trimLabel(nameSlug, 40)
  const domainRoll = rng.next()
  const city = commune ? cityName(commune) : null
  const freeMail = domainRoll >= 0.75
  const emailDomain = freeMail
    ? rng.pick(FREE_MAIL)
    : domainRoll >= 0.5 && city
      ? `${trimLabel(`${label}-${slugify(city)}`, 50)}.fr`
      : `${label}.fr`

  const emailMarkup = rng.weighted<EmailMarkup>([['mailto', 30], ['mailto-encoded', 10], ['obfuscated', 15], ['cloudflare', 15], ['json-ld', 20], ['none', 10]])
  const emails: string[] = []
  if (emailMarkup !== 'none') {
    if (freeMail) {
      emails.push(`${label.replace(/-/g, '.')}${rng.chance(0.4) ? rng.int(10, 99) : ''}@${emailDomain}`)
    } else {
      const primary = rng.pick(PRIMARY_LOCALS)
      emails.push(`${primary}@${emailDomain}`)
      if (rng.chance(0.3)) emails.push(`${rng.pick(SECONDARY_LOCALS)}@${emailDomain}`)
    }
  }

  const socialMedia = rng.chance(0.85) ? pickSocials(seed, trimLabel(label, 30)) : {}
  const { stack, technologies, headers, analyticsId, versions } = pickTechnologies(seed, emailMarkup)

  const robotsDisallowPrivate = ROBOTS_PRIVATE_SUFFIXES.includes(slug.slice(-1).toLowerCase())
  const decoyEmails = ['votre@email.fr']
  if (rng.chance(0.3)) decoyEmails.push('logo@2x.png')
  if (rng.chance(0.1)) decoyEmails.push(`${seed.toString(16)}@o${rng.int(100000, 999999)}.ingest.sentry.io`)
  const decoyLinks = rng.chance(0.3)
    ? [`https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2F${encodeURIComponent(emailDomain)}%2F`, `https://twitter.com/intent/tweet?url=https%3A%2F%2F${encodeURIComponent(emailDomain)}%2F`]
    : []

  const legalName = details.legalForm === 'EI' ? `${name} (EI)` : `${details.legalForm} ${name.toUpperCase()}`
  return {
    slug,
    seed,
    name,
    legalName,
    emailDomain,
    streetAddress: details.streetAddress,
    postalCode: details.postalCode,
    city: details.city,
    phone: details.phone,
    mobile: demoMobile(seed, details.phone !== null),
    emails,
    emailMarkup,
    socialMedia,
    socialMarkup: emailMarkup === 'json-ld' ? 'json-ld' : 'links',
    technologies,
    stack,
    siret: rng.chance(0.6) ? details.siret : null,
    robotsDisallowPrivate,
    privateEmail: robotsDisallowPrivate ? `prive.${seed.toString(36)}@${emailDomain}` : null,
    decoys: { emails: decoyEmails, socialLinks: decoyLinks },
    headers,
    analyticsId,
    foundedYear: details.foundedYear,
    publisher: `${rng.pick(FIRST_NAMES)} ${rng.pick(SURNAMES)}`,
    versions,
    obfuscationStyle: rng.pick([0, 1, 2] as const),
  }
}

/** What a correct crawler should find on the site for `slug` (public part of {@link demoSite}). */
export function demoSiteTruth(slug: string): DemoSiteTruth {
  const { seed: _seed, foundedYear: _year, publisher: _publisher, versions: _versions, obfuscationStyle: _style, ...truth } = demoSite(slug)
  return truth
}

/** The shared robots.txt of the demo server: one wildcard rule per slug suffix that hides /private pages. */
export function demoRobotsTxt(): string {
  return ['User-agent: *', ...ROBOTS_PRIVATE_SUFFIXES.map((c) => `Disallow: /sites/*${c}/private`), ''].join('\n')
}
