/**
 * Credit blocks: "Site réalisé par …", "Design : …", "Website by …", "Hébergeur : OVH … tél", in fr/en/de/es/it/nl.
 * The address and phone printed there are a web agency's, a freelance designer's or a host's, never the business's.
 * parsePage cuts these segments out of the text it gives to the email/phone extractors and flags the links inside.
 */

// Phrases that announce who made or hosts the site, whatever follows them.
const BY_PHRASES = [
  // fr
  'site (?:internet |web )?(?:réalisé|conçu|créé|développé|hébergé)', '(?:réalisé|conçu|créé|développé|designé|hébergé|propulsé|motorisé) par',
  'conception et réalisation', 'création et réalisation', 'réalisation et conception', 'création (?:du |de ce )site', 'conception (?:du |de ce )site',
  'réalisation (?:du |de ce )site', 'design et développement',
  // en
  'made (?:with .{1,20} )?by', '(?:web)?site (?:designed |built |made |created |developed )?by', '(?:web ?)?designed(?: and (?:built|developed))? by',
  '(?:developed|built|created|powered|hosted|crafted|handcrafted) by', 'web ?design by', 'design by', 'theme by',
  // de
  '(?:erstellt|gestaltet|entwickelt|programmiert|realisiert|umgesetzt|gehostet) (?:von|durch)', 'webdesign (?:von|by|durch)', 'design von', 'website von',
  // es
  '(?:diseñad[oa]|desarrollad[oa]|realizad[oa]|cread[oa]|alojad[oa]) por', 'diseño web', 'diseño y desarrollo',
  // it
  '(?:sito )?(?:realizzato|sviluppato|creato|progettato|ospitato) da', 'realizzazione (?:sito|siti)', 'web agency',
  // nl
  '(?:website )?(?:gemaakt|ontwikkeld|ontworpen|gerealiseerd|gebouwd) door', 'website door',
]
// Nouns that are a credit only when a name follows them ("Réalisation : X", "Conception Web : X" as Québec writes it,
// "Réalisation Nord Web"), not in prose
// ("Création et entretien de jardins").
const CREDIT_NOUNS = [
  'conception', 'création', 'design', 'graphisme', 'développement', 'hébergement', 'hosting', 'web hosting', 'gestaltung', 'umsetzung',
  'realisierung', 'diseño', 'alojamiento', 'realizzazione', 'progettazione', 'ontwerp', 'realisatie', 'ontwikkeling',
]
// Nouns never used in prose before a capitalised name, so "Réalisation Nord Web" (no colon) is a credit too.
const NAME_NOUNS = ['réalisation', 'webdesign', 'web design', 'crédits?', 'credits?', 'hébergeur']
const NOUNS = [...CREDIT_NOUNS, ...NAME_NOUNS].join('|')
/** A credit phrase at the start of the string: a by-phrase, or a credit noun followed by ":" (or a name). */
const CREDIT_AT = new RegExp(
  `^(?:${BY_PHRASES.join('|')})(?![\\p{L}])(?!\\s+(?:(?:par|by)\\s+)?(?:appointment|hand|nos soins|nous-mêmes|nous|our team|us|ourselves)\\b)|^(?:${NOUNS})(?:\\s+(?:web|internet|graphique|technique|du site(?: internet| web)?|de ce site))?(?:\\s*[:：]|\\s+(?:par|by|von|por|da|door)\\s)`,
  'iu',
)
const NAME_NOUN_AT = new RegExp(`^(?:${NAME_NOUNS.join('|')})\\s+(\\S)`, 'iu')

function isCreditAt(text: string): boolean {
  if (CREDIT_AT.test(text)) return true
  const name = NAME_NOUN_AT.exec(text)?.[1]
  return name !== undefined && (/\d/.test(name) || name !== name.toLowerCase())
}
// Words of a credit heading that may be combined: "Conception & Réalisation", "Hébergement / Hébergeur".
const WORK =
  '(?:conception|concepteur|création|créateur|design|designer|webdesigner|réalisation|développement|développeur|graphisme|graphiste|intégration|intégrateur|hébergement|hébergeur|maintenance|webmaster)'
const HEADING_SUFFIX = '(?:\\s+(?:du|de ce) site(?: internet| web)?|\\s+technique|\\s+graphique)?'
/**
 * A line or heading that is only a credit heading ("Réalisation", "Hébergement", "Crédits :", "Charte graphique",
 * "Conception & Réalisation", "Site réalisé par"). Not "Création" or "Design" alone: a florist's or a designer's
 * section about their own work.
 */
export const CREDIT_HEADING = new RegExp(
  `^(?:(?:réalisation|crédits?|credits?|web ?design|webdesign|webmaster|charte graphique|hébergement|hébergeur|hosting|web hosting|hosting provider|alojamiento|site credits|impressum credits|prestataire d['’]hébergement)${HEADING_SUFFIX}` +
    `|${WORK}(?:\\s*(?:et|and|&|/|,|-|–)\\s*${WORK})+${HEADING_SUFFIX}|(?:conception|création|design|réalisation) (?:graphique|technique|du site(?: internet| web)?)` +
    // "Concepteur du site", "Créateur de ce site web", "Webdesigner": the maker named by its trade, site named (or plain).
    `|(?:concepteur|créateur|développeur|intégrateur|designer|graphiste)(?:\\s+(?:du|de ce) site(?: internet| web)?)|webdesigner|web designer` +
    `|site (?:internet |web )?(?:réalisé|conçu|créé|développé|hébergé) par|(?:web)?site (?:designed |built |made )?by|designed by|hosted by)\\s*:?$`,
  'iu',
)
export const HOST_HEADING =
  /^(?:hébergement|hébergeur|hosting|web hosting|hosting provider|alojamiento|prestataire d['’]hébergement)(?:\s+du site(?: internet| web)?)?(?:\s*(?:\/|et|&|-|–)\s*(?:hébergement|hébergeur))*\s*:?$/iu
/**
 * Identifiers of the hosts French sites name in their legal notice (OVH, o2switch, IONOS, Gandi, Wix): printed on thousands
 * of sites, never the business's, whatever the layout around them.
 */
export const HOST_SIRENS = new Set(['424761419', '510909807', '431303775', '423093459'])
export const HOST_PHONES = new Set(['+33972101007', '+33444446040', '+33970808911', '+14156399034'])
/** Hosts and site builders that only ever make or host sites: never a shop's or a plumber's own name. */
const BUILDERS =
  'ovh|ionos|1&1|o2switch|gandi|hostinger|lws|infomaniak|scaleway|online sas|planethoster|shopify|wix|squarespace|jimdo|webflow|strato|hetzner|netlify|vercel|godaddy|siteground|bluehost|hostpapa|alwaysdata|ikoula|nuxit|o2 switch|' +
  // Belgian, Swiss and Québec hosts
  'combell|one\\.com|hostpoint|cyon|metanet|nindohost|hostgator'
/** A host's line: a known hosting company or a company form (so a gîte's "Hébergement" section is not cut). */
export const HOST_LINE = new RegExp(
  // Company forms of France, Belgium (nv, srl, sprl, bvba), Switzerland (sàrl, ag) and Québec (inc, ltée); not "sa", a French word.
  `(?<![\\p{L}])(?:${BUILDERS}|amazon web services|aws|google|microsoft|sas|sarl|s\\.a\\.s|s\\.a\\.|inc|ltd|llc|gmbh|b\\.v|s\\.l|s\\.r\\.l|nv|n\\.v|srl|sprl|bvba|sàrl|ag|ltée)(?![\\p{L}])`,
  'iu',
)
/**
 * A legal notice's publisher heading ("Éditeur", "Éditeur du site :", "Publisher"). The publisher is meant to be the
 * business, but small sites often name the agency or builder that made the site there instead.
 */
export const PUBLISHER_HEADING = /^(?:[ée]diteur|[ée]dition|publisher|site publisher|website publisher)(?:\s+du site(?: internet| web)?)?\s*:?$/iu
// What only a maker of websites writes about itself. Google, Microsoft or AWS are left out: a business names them too.
const AGENCY_TEXT = new RegExp(
  `(?<![\\p{L}])(?:agence (?:web|digitale|de communication|communication|internet|numérique|de création|marketing)|web ?agency|digital agency|` +
    `cr[ée]ation (?:de |des )?sites?|conception de sites?|web ?design(?:er)?|d[ée]veloppement web|d[ée]veloppeur web|solutions web|` +
    `studio (?:graphique|web|digital|de création)|int[ée]grateur web|${BUILDERS})(?![\\p{L}])`,
  'iu',
)

/**
 * A publisher section that names a web agency or site builder rather than the business: its contacts are the business's
 * only when the site prints no other. Its own credit lines ("Site réalisé par …", already cut) do not count.
 */
export function agencyPublisher(section: string): boolean {
  return AGENCY_TEXT.test(withoutRanges(section, creditRanges(section)))
}
/** Where a credit may start inside a line: the line start, or after a separator ("© 2024 X – Réalisation : Y"). */
const SEPARATOR = /[–—|·•:;,/]\s*|\s-\s|\.\s+/gu
const MAX_LINE = 300

export type Range = [start: number, end: number]

/** Offset (within `line`) where a credit segment starts, or -1. */
function creditStart(line: string): number {
  const lead = line.length - line.trimStart().length
  if (isCreditAt(line.slice(lead))) return lead
  for (const sep of line.matchAll(SEPARATOR)) {
    const at = (sep.index ?? 0) + sep[0].length
    if (at < line.length && isCreditAt(line.slice(at))) return at
  }
  return -1
}

/** Where a credit segment ends early: a separator before the site's own links or copyright ("… | Mentions légales"). */
const CREDIT_END =
  /\s[|·•]\s*(?=(?:mentions|contact|plan du site|cgv|cgu|conditions|politique|privacy|legal|impressum|datenschutz|cookies|accueil|home|aviso|note legali|colofon|©|copyright))/iu

/** Credit segments of one line: from a credit phrase to the line's end, or to the site's own links that follow. */
function lineCredits(line: string): Range[] {
  const out: Range[] = []
  let from = 0
  while (from < line.length && out.length < 5) {
    const at = creditStart(line.slice(from))
    if (at < 0) break
    const start = from + at
    const stop = CREDIT_END.exec(line.slice(start))
    const end = stop ? start + stop.index : line.length
    out.push([start, end])
    from = end + 1
  }
  return out
}

/** The whole line is a credit (a credit phrase at its start, nothing of the site's own after it). */
export function wholeLineCredit(line: string): boolean {
  const trimmed = line.trim()
  if (!trimmed || trimmed.length > MAX_LINE) return false
  const first = lineCredits(trimmed)[0]
  return first !== undefined && first[0] === 0 && first[1] === trimmed.length
}

/**
 * The credit segments of `text` (lines split at "\n"): from a credit phrase to the end of its (short) line, and the
 * line following a bare credit heading ("Réalisation" / "Hébergement" then the agency's or host's line).
 */
export function creditRanges(text: string): Range[] {
  const ranges: Range[] = []
  let pendingHeading: 'agency' | 'host' | null = null
  let offset = 0
  for (const line of text.split('\n')) {
    const start = offset
    offset += line.length + 1
    const trimmed = line.trim()
    if (!trimmed) continue
    if (pendingHeading && trimmed.length <= MAX_LINE && (pendingHeading === 'agency' || HOST_LINE.test(trimmed))) {
      ranges.push([start, start + line.length])
      pendingHeading = null
      continue
    }
    pendingHeading = null
    if (trimmed.length > MAX_LINE) continue
    if (CREDIT_HEADING.test(trimmed)) {
      pendingHeading = HOST_HEADING.test(trimmed) ? 'host' : 'agency'
      continue
    }
    ranges.push(...lineCredits(line).map(([from, to]): Range => [start + from, start + to]))
  }
  return ranges
}

export function inRanges(ranges: Range[], position: number): boolean {
  return ranges.some(([start, end]) => position >= start && position < end)
}

/** Sorted, overlapping ranges merged. */
export function mergeRanges(ranges: Range[]): Range[] {
  const out: Range[] = []
  for (const [start, end] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const last = out[out.length - 1]
    if (last && start <= last[1]) last[1] = Math.max(last[1], end)
    else out.push([start, end])
  }
  return out
}

/** The complement of sorted, disjoint ranges within [0, length). */
export function outsideRanges(ranges: Range[], length: number): Range[] {
  const out: Range[] = []
  let from = 0
  for (const [start, end] of ranges) {
    if (start > from) out.push([from, start])
    from = Math.max(from, end)
  }
  if (from < length) out.push([from, length])
  return out
}

/** `text` with the ranges (sorted, disjoint) replaced by a line break. */
export function withoutRanges(text: string, ranges: Range[]): string {
  if (ranges.length === 0) return text
  let out = ''
  let from = 0
  for (const [start, end] of ranges) {
    out += `${text.slice(from, start)}\n`
    from = end
  }
  return out + text.slice(from)
}
