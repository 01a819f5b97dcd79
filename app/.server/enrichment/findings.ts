/**
 * The extraction half of a crawl as a pure function: from pages already fetched and parsed to emails, phones,
 * social profiles, SIREN/SIRET and technologies. Same steps, same order as crawler.ts's (private) extractFindings,
 * The crawler calls it on the pages it fetched; the discovery bench (bench/discovery.ts) and the corpus test call it
 * on fixture pages, so they measure exactly what the crawler finds on a site, without a network.
 */
import { HOST_PHONES, HOST_SIRENS } from './credits.ts'
import { addEmails, decodeCfEmail, emailsFromMailto, emailsFromText, isSiteAddress } from './emails.ts'
import { jsonLdStrings, type ParsedPage } from './html.ts'
import { addPhones, phoneFromWhatsAppUrl, phonesFromText } from './phones.ts'
import { scriptStrings } from './script-strings.ts'
import { siteCountry } from './site-country.ts'
import { companyIdsFromText } from './siret.ts'
import { addSocialLinks, type SocialNetworkName } from './social.ts'
import { type DetectedTechnology, detectSiteTechnologies } from './technologies.ts'

export interface ExtractionPage {
  kind: 'home' | 'contact' | 'legal' | 'about'
  url: string
  html: string
  parsed: ParsedPage
  headers: Record<string, string | string[]>
}

export interface ExtractedFindings {
  emails: string[]
  /** The page each email was first found on (provenance: the file names it). */
  emailPages: Record<string, string>
  phones: string[]
  /** The page each phone was first found on. */
  phonePages: Record<string, string>
  socialMedia: Partial<Record<SocialNetworkName, string>>
  siret: string | null
  siren: string | null
  /** The page the SIRET (else the SIREN) was printed on. */
  companyIdsPage: string | null
  technologyDetails: DetectedTechnology[]
}

const MAX_EMAILS = 20
const MAX_PHONES = 10

/** A raw number and the page it was printed on. */
type Found = [raw: string, page: string]

function companyIds(
  pages: ExtractionPage[],
  textOf: (page: ExtractionPage) => string,
): { siret: string | null; siren: string | null; companyIdsPage: string | null } {
  // Legal notices first: that is where the SIRET is meant to be.
  let ids = { siret: null as string | null, siren: null as string | null, companyIdsPage: null as string | null }
  for (const page of [...pages.filter((p) => p.kind === 'legal'), ...pages.filter((p) => p.kind !== 'legal')]) {
    // Credit blocks left out: the agency's or host's SIRET ("Hébergeur : OVH SAS, RCS Lille 424 761 419") is not the business's.
    const found = companyIdsFromText(textOf(page))
    if (found.siren && HOST_SIRENS.has(found.siren)) continue
    if (found.siret) return { ...found, companyIdsPage: page.url }
    if (found.siren && !ids.siren) ids = { siret: null, siren: found.siren, companyIdsPage: page.url }
  }
  return ids
}

/** The business's identifiers; an agency named as publisher's (ParsedPage.fallbackText) only when the site prints no other. */
function siteCompanyIds(pages: ExtractionPage[]) {
  const own = companyIds(pages, (page) => page.parsed.contactText)
  return own.siren ? own : companyIds(pages, (page) => page.parsed.fallbackText)
}

/** A page's emails: the business's own, and those of an agency named as the site's publisher (ParsedPage.fallbackText). */
function pageEmails(page: ExtractionPage, links: ParsedPage['links']): { own: Set<string>; fallback: Set<string> } {
  const { parsed } = page
  const own = new Set<string>()
  const fallback = new Set<string>()
  for (const link of links) {
    if (!/^\s*mailto:/i.test(link.href)) continue
    // Links inside a credit block ("Site réalisé par <a>…</a>") are the agency's or host's, unless at the site's domain.
    const emails = emailsFromMailto(link.href)
    addEmails(own, emails.filter((e) => (!link.credit && !link.fallback) || isSiteAddress(e, page.url)))
    if (link.fallback) addEmails(fallback, emails.filter((e) => !isSiteAddress(e, page.url)))
  }
  addEmails(own, parsed.cfEmails.map((hex) => decodeCfEmail(hex) ?? ''))
  addEmails(own, jsonLdStrings(parsed.jsonLd, 'email'))
  addEmails(own, emailsFromText(parsed.contactText))
  addEmails(own, emailsFromText(parsed.text).filter((e) => isSiteAddress(e, page.url)))
  addEmails(own, parsed.inlineScripts.flatMap(scriptStrings).flatMap(emailsFromText))
  addEmails(fallback, parsed.fallbackCfEmails.map((hex) => decodeCfEmail(hex) ?? ''))
  addEmails(fallback, emailsFromText(parsed.fallbackText))
  return { own, fallback }
}

/** Each email once, with the page it was first found on. */
function addFound(emails: Set<string>, emailPages: Record<string, string>, found: Iterable<string>, page: string) {
  for (const email of found) {
    if (emails.has(email)) continue
    emails.add(email)
    emailPages[email] = page
  }
}

/** Numbers deduplicated in their order of trust, the well-known hosts' left out. */
function keptPhones(found: Found[], country: string | null): Array<{ number: string; page: string }> {
  const phones = new Map<string, { number: string; page: string }>()
  addPhones(phones, found, country)
  return [...phones.entries()].filter(([key]) => !HOST_PHONES.has(key)).map(([, phone]) => phone).slice(0, MAX_PHONES)
}

/** Every crawled page fingerprinted, detections pooled per site (robots.txt is the site's, given once). */
function siteTechnologies(pages: ExtractionPage[], robotsText: string): DetectedTechnology[] {
  try {
    return detectSiteTechnologies(
      pages.map((page, i) => {
        const cookies = page.headers['set-cookie']
        return {
          url: page.url,
          html: page.html,
          text: page.parsed.text,
          scriptSrc: page.parsed.scriptSrc,
          meta: page.parsed.meta,
          headers: page.headers,
          cookies: cookies === undefined ? [] : Array.isArray(cookies) ? cookies : [cookies],
          robots: (i === 0 && robotsText) || undefined,
        }
      }),
    )
  } catch {
    return []
  }
}

/** Pages: the homepage first, then the contact / legal / about pages the crawler chose. */
export function extractFindings(pages: ExtractionPage[], { country: leadCountry, robotsText }: { country: string | null; robotsText: string }): ExtractedFindings {
  // National numbers are read in the site's own country (a Belgian site found by a French export: +32, never +33).
  const ownTelLinks = pages.flatMap((page) => page.parsed.links.filter((l) => !l.credit && !l.fallback && /^\s*tel:/i.test(l.href)).map((l) => l.href))
  const country = siteCountry(pages, leadCountry, ownTelLinks)
  const emails = new Set<string>()
  const emailPages: Record<string, string> = {}
  const fallbackEmails: Array<[emails: Set<string>, page: string]> = []
  const socialMedia: Partial<Record<SocialNetworkName, string>> = {}
  // Each number with its page, in the order of trust: tel: links, JSON-LD, WhatsApp links, text, legal-notice text.
  const telLinks: Found[] = []
  const jsonLdPhones: Found[] = []
  const whatsAppPhones: Found[] = []
  const textPhones: Found[] = []
  const legalTextPhones: Found[] = []
  // An agency named as the site's publisher: its numbers are the business's only when the site prints no other.
  const fallbackPhones: Found[] = []
  for (const page of pages) {
    const { parsed } = page
    const links = parsed.links.filter((l) => l.url || /^\s*(?:mailto|tel):/i.test(l.href))
    const found = pageEmails(page, links)
    addFound(emails, emailPages, found.own, page.url)
    fallbackEmails.push([found.fallback, page.url])
    for (const link of links) {
      if (link.credit || /^\s*mailto:/i.test(link.href)) continue
      if (/^\s*tel:/i.test(link.href)) (link.fallback ? fallbackPhones : telLinks).push([link.href.trim().slice(4), page.url])
      else if (!link.fallback) whatsAppPhones.push([phoneFromWhatsAppUrl(link.url ?? '') ?? '', page.url])
    }
    addSocialLinks(socialMedia, links.map((l) => l.url ?? '').filter(Boolean))
    addSocialLinks(socialMedia, jsonLdStrings(parsed.jsonLd, 'sameAs'))
    jsonLdPhones.push(...jsonLdStrings(parsed.jsonLd, 'telephone').map((raw): Found => [raw, page.url]))
    ;(page.kind === 'legal' ? legalTextPhones : textPhones).push(...phonesFromText(parsed.contactText, country).map((raw): Found => [raw, page.url]))
    fallbackPhones.push(...phonesFromText(parsed.fallbackText, country).map((raw): Found => [raw, page.url]))
  }
  if (emails.size === 0) for (const [found, page] of fallbackEmails) addFound(emails, emailPages, found, page)
  const own = keptPhones([...telLinks, ...jsonLdPhones, ...whatsAppPhones.filter(([raw]) => raw), ...textPhones, ...legalTextPhones], country)
  const kept = own.length > 0 ? own : keptPhones(fallbackPhones, country)
  return {
    emails: [...emails].slice(0, MAX_EMAILS),
    emailPages,
    phones: kept.map((phone) => phone.number),
    phonePages: Object.fromEntries(kept.map((phone) => [phone.number, phone.page])),
    socialMedia,
    ...siteCompanyIds(pages),
    technologyDetails: siteTechnologies(pages, robotsText),
  }
}
