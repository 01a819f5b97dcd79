/**
 * Which pages of a site to read after its homepage: the contact, legal-notice and about pages, recognised by the
 * words of their link text or address in French, English, German, Spanish, Italian and Dutch, and ranked so the
 * page budget goes to the pages that carry contact details and company ids (contact and legal before about).
 * Pure: the crawler feeds it the homepage's links and, when those are not enough, a sitemap's addresses.
 */

export type DiscoveredKind = 'contact' | 'legal' | 'about'

export interface PageCandidate {
  url: string
  kind: DiscoveredKind
  /** A quote-request page (a contact page of the weaker sort). */
  quote?: boolean
}

// Words are matched on the link text and on the decoded address, with - _ / + and spaces read alike. Each list is
// what small-business sites of these six languages call the page, not every word that contains "contact".
const WORDS: Record<DiscoveredKind, string[]> = {
  contact: [
    // fr
    'contact', 'contacts', 'contactez nous', 'contactez moi', 'nous contacter', 'me contacter', 'nous joindre', 'nous trouver', 'nous ecrire',
    'coordonnees',
    // en
    'contact us', 'get in touch', 'reach us', 'find us',
    // de
    'kontakt', 'kontaktieren sie uns', 'kontaktformular',
    // es
    'contacto', 'contactenos', 'contactanos', 'contactar',
    // it
    'contatti', 'contatto', 'contattaci', 'contattateci', 'dove siamo',
    // nl
    'neem contact op', 'contacteer ons', 'contactgegevens',
  ],
  legal: [
    // fr
    'mentions legales', 'mention legale', 'informations legales', 'infos legales', 'juridique', 'cgv', 'conditions generales de vente',
    // Belgium and Québec: "Avis légal"; a "Crédits" page often holds the publisher's ids with the agency's credits
    'avis legal', 'avis juridique', 'credits', 'credits et mentions legales',
    // en
    'legal', 'legal notice', 'legal notices', 'legal information', 'imprint', 'site notice', 'disclaimer',
    // de
    'impressum', 'rechtliche hinweise',
    // es
    'aviso legal', 'informacion legal', 'nota legal',
    // it
    'note legali', 'nota legale', 'informazioni legali',
    // nl
    'colofon', 'wettelijke vermeldingen', 'juridische informatie',
  ],
  about: [
    'a propos', 'qui sommes nous', 'notre histoire', 'notre equipe', 'about', 'about us', 'our story', 'uber uns', 'sobre nosotros', 'quienes somos',
    'chi siamo', 'over ons',
  ],
}

/**
 * Quote requests ("Demande de devis", "Soumission gratuite" in Québec): small firms print the address to write to there,
 * so they are contact pages, but weaker ones: a real contact page goes first, and a site whose links name only a quote
 * page still has its sitemap read for a contact page.
 */
const QUOTE = /(?:^| )(?:devis|devis gratuit|demande de devis|demander un devis|soumission|soumissions|soumission gratuite|demande de soumission|angebot|preventivo|presupuesto|offerte)(?: |$)/
const QUOTE_SCORE = { text: 0.75, address: 0.5 }

/**
 * Pages named with a contact word that are not the business's contact page: an optician's products ("contact
 * lenses", "lentilles de contact", "Kontaktlinsen", "lentes de contacto", "lenti a contatto", "contactlenzen") and
 * contactless payment.
 */
const NOT_A_PAGE_OF_KIND =
  /(?:^| )(?:lens|lenses|lentilles?|lentes|lenti|lenzen|kontaktlinsen|contactlenzen|contactless|sans contact|kontaktlos|sin contacto|senza contatto|contactloos)(?: |$)/

/** Lower case, accents dropped, separators as single spaces: "Mentions_Légales" → "mentions legales". */
function normalizeWords(value: string): string {
  return value
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
}

const PATTERNS = Object.fromEntries(
  Object.entries(WORDS).map(([kind, words]) => [kind, new RegExp(`(?:^| )(?:${words.map((w) => w.replace(/ /g, ' ?')).join('|')})(?: |$)`)]),
) as Record<DiscoveredKind, RegExp>

const KINDS: DiscoveredKind[] = ['contact', 'legal', 'about']

/** The address's path and query as words ("/nl/neem-contact-op?x=1" → "nl neem contact op x 1"). */
function addressWords(url: URL): string {
  let path = url.pathname + url.search
  try {
    path = decodeURIComponent(path)
  } catch {
    // keep the encoded form
  }
  return normalizeWords(path.replace(/\.(?:html?|php|aspx?)$/i, ''))
}

/**
 * The kind of page a link leads to and how sure we are: 2 when its text names it, 1 when only its address does.
 * Short texts only: a paragraph that mentions "contact" is not a menu entry.
 */
export function scoreLink(url: URL, text: string): { kind: DiscoveredKind; score: number; quote?: boolean } | null {
  const words = normalizeWords(text)
  const fromText = words.length <= 40 ? words : ''
  const address = addressWords(url)
  if (NOT_A_PAGE_OF_KIND.test(fromText) || NOT_A_PAGE_OF_KIND.test(address)) return null
  for (const kind of KINDS) {
    if (fromText && PATTERNS[kind].test(fromText)) return { kind, score: 2 }
  }
  for (const kind of KINDS) if (PATTERNS[kind].test(lastSegments(address))) return { kind, score: 1 }
  if (fromText && QUOTE.test(fromText)) return { kind: 'contact', score: QUOTE_SCORE.text, quote: true }
  if (QUOTE.test(lastSegments(address))) return { kind: 'contact', score: QUOTE_SCORE.address, quote: true }
  return null
}

/** The end of the address: "/fr/contact" is a contact page; "/contact/blog/winter-hours" is not. */
function lastSegments(address: string): string {
  return address.split(' ').slice(-4).join(' ')
}

/**
 * Candidates in the order their pages are worth fetching: the surest contact and legal pages alternately, then
 * the remaining contact and legal pages, then about pages. Same address twice: its first (best) reading.
 */
export function rankCandidates(scored: Array<PageCandidate & { score: number }>): PageCandidate[] {
  const byKind = (kind: DiscoveredKind) =>
    scored
      .map((candidate, index) => ({ candidate, index }))
      .filter(({ candidate }) => candidate.kind === kind)
      .sort((a, b) => b.candidate.score - a.candidate.score || a.index - b.index)
      .map(({ candidate }) => ({ url: candidate.url, kind: candidate.kind }))
  const contact = byKind('contact')
  const legal = byKind('legal')
  const ordered: PageCandidate[] = []
  for (let i = 0; i < Math.max(contact.length, legal.length); i++) ordered.push(...[contact[i], legal[i]].filter((c) => c !== undefined))
  ordered.push(...byKind('about'))
  const seen = new Set<string>()
  return ordered.filter(({ url }) => !seen.has(url) && seen.add(url))
}

/** Kinds a site still lacks a page for among those worth a sitemap read (contact details, company ids). */
export function missingKinds(candidates: PageCandidate[]): DiscoveredKind[] {
  return (['contact', 'legal'] as const).filter((kind) => !candidates.some((c) => c.kind === kind && !c.quote))
}

/**
 * Where a small site keeps its contact and legal pages when nothing links them and no sitemap lists them, by the
 * language of its homepage: one address per kind, tried only for a kind still missing (the page budget counts it).
 */
const COMMON_PATHS: Record<string, Partial<Record<DiscoveredKind, string>>> = {
  fr: { contact: '/contact', legal: '/mentions-legales' },
  de: { contact: '/kontakt', legal: '/impressum' },
  it: { contact: '/contatti', legal: '/note-legali' },
  es: { contact: '/contacto', legal: '/aviso-legal' },
  nl: { contact: '/contact', legal: '/disclaimer' },
  en: { contact: '/contact', legal: '/legal' },
}

/** Addresses to try for the missing kinds ("fr-BE" → French paths; unknown language: French, then none). */
export function commonPathCandidates(homeUrl: URL, lang: string | null, missing: DiscoveredKind[]): PageCandidate[] {
  const paths = COMMON_PATHS[(lang ?? 'fr').slice(0, 2).toLowerCase()] ?? COMMON_PATHS.fr
  return missing.flatMap((kind) => {
    const path = paths?.[kind]
    return path ? [{ url: new URL(path, homeUrl).href, kind }] : []
  })
}
