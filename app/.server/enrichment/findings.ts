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

function companyIds(pages: ExtractionPage[]): { siret: string | null; siren: string | null; companyIdsPage: string | null } {
  // Legal notices first: that is where the SIRET is meant to be.
  let ids = { siret: null as string | null, siren: null as string | null, companyIdsPage: null as string | null }
  for (const page of [...pages.filter((p) => p.kind === 'legal'), ...pages.filter((p) => p.kind !== 'legal')]) {
    // Credit blocks left out: the agency's or host's SIRET ("Hébergeur : OVH SAS, RCS Lille 424 761 419") is not the business's.
    const found = companyIdsFromText(page.parsed.contactText)
    if (found.siren && HOST_SIRENS.has(found.siren)) continue
    if (found.siret) return { ...found, companyIdsPage: page.url }
    if (found.siren && !ids.siren) ids = { siret: null, siren: found.siren, companyIdsPage: page.url }
  }
  return ids
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
export function extractFindings(pages: ExtractionPage[], { country, robotsText }: { country: string | null; robotsText: string }): ExtractedFindings {
  const emails = new Set<string>()
  const emailPages: Record<string, string> = {}
  const socialMedia: Partial<Record<SocialNetworkName, string>> = {}
  // Each number with its page, in the order of trust: tel: links, JSON-LD, WhatsApp links, text, legal-notice text.
  const telLinks: Found[] = []
  const jsonLdPhones: Found[] = []
  const whatsAppPhones: Found[] = []
  const textPhones: Found[] = []
  const legalTextPhones: Found[] = []
  for (const page of pages) {
    const { parsed } = page
    const links = parsed.links.filter((l) => l.url || /^\s*(?:mailto|tel):/i.test(l.href))
    const pageEmails = new Set<string>()
    // Links inside a credit block ("Site réalisé par <a>…</a>") are the agency's or host's, unless at the site's domain.
    for (const link of links) {
      if (/^\s*mailto:/i.test(link.href)) addEmails(pageEmails, emailsFromMailto(link.href).filter((e) => !link.credit || isSiteAddress(e, page.url)))
      else if (link.credit) continue
      else if (/^\s*tel:/i.test(link.href)) telLinks.push([link.href.trim().slice(4), page.url])
      else whatsAppPhones.push([phoneFromWhatsAppUrl(link.url ?? '') ?? '', page.url])
    }
    addEmails(pageEmails, parsed.cfEmails.map((hex) => decodeCfEmail(hex) ?? ''))
    addEmails(pageEmails, jsonLdStrings(parsed.jsonLd, 'email'))
    addEmails(pageEmails, emailsFromText(parsed.contactText))
    addEmails(pageEmails, emailsFromText(parsed.text).filter((e) => isSiteAddress(e, page.url)))
    addEmails(pageEmails, parsed.inlineScripts.flatMap(scriptStrings).flatMap(emailsFromText))
    for (const email of pageEmails) {
      if (emails.has(email)) continue
      emails.add(email)
      emailPages[email] = page.url
    }
    addSocialLinks(socialMedia, links.map((l) => l.url ?? '').filter(Boolean))
    addSocialLinks(socialMedia, jsonLdStrings(parsed.jsonLd, 'sameAs'))
    jsonLdPhones.push(...jsonLdStrings(parsed.jsonLd, 'telephone').map((raw): Found => [raw, page.url]))
    ;(page.kind === 'legal' ? legalTextPhones : textPhones).push(...phonesFromText(parsed.contactText, country).map((raw): Found => [raw, page.url]))
  }
  const phones = new Map<string, { number: string; page: string }>()
  addPhones(phones, [...telLinks, ...jsonLdPhones, ...whatsAppPhones.filter(([raw]) => raw), ...textPhones, ...legalTextPhones], country)
  const kept = [...phones.entries()].filter(([key]) => !HOST_PHONES.has(key)).map(([, phone]) => phone).slice(0, MAX_PHONES)
  return {
    emails: [...emails].slice(0, MAX_EMAILS),
    emailPages,
    phones: kept.map((phone) => phone.number),
    phonePages: Object.fromEntries(kept.map((phone) => [phone.number, phone.page])),
    socialMedia,
    ...companyIds(pages),
    technologyDetails: siteTechnologies(pages, robotsText),
  }
}
