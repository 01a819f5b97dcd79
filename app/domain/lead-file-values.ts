// How the lead values stored in the database read in a downloaded file (SPEC §3 Lead): text, a
// number, or empty. Pure; the download's columns (app/.server/exports/download/columns.ts) and the
// enrichment types' file columns (enrichment-types.ts) share them.
import { formatOsmOpeningHours, type FileLang } from './file-language.ts'
import { technologyCategoryLabel } from './technology-categories.ts'

/** A file cell: text, a number (kept numeric in both formats), or empty. */
export type Cell = string | number | null

export function text(value: unknown): string | null {
  if (value === null || value === undefined) return null
  const result = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value)
  return result === '' ? null : result
}

export function num(value: unknown): number | null {
  const result = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN
  return Number.isFinite(result) ? result : null
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function joinList(values: unknown, separator = '; '): string | null {
  if (!Array.isArray(values)) return text(values)
  const parts = values.map(text).filter((part): part is string => part !== null)
  return parts.length ? parts.join(separator) : null
}

/** The first non-empty item of a list (or the value itself when it is not one). */
export function firstOfList(values: unknown): string | null {
  if (!Array.isArray(values)) return text(values)
  for (const value of values) {
    const found = text(value)
    if (found) return found
  }
  return null
}

/** Text from OSM (its opening_hours syntax, written out in the file's language), Google (weekdayDescriptions, already in the language asked), a list, or a day -> hours map. */
export function formatWorkingHours(value: unknown, lang: FileLang): string | null {
  if (value === null || value === undefined) return null
  if (typeof value === 'string') return text(formatOsmOpeningHours(value, lang))
  if (Array.isArray(value)) return joinList(value)
  if (isRecord(value)) {
    if (Array.isArray(value.weekdayDescriptions)) return joinList(value.weekdayDescriptions)
    const entries = Object.entries(value).filter(([, hours]) => hours !== null && hours !== undefined)
    if (entries.length && entries.every(([, hours]) => typeof hours === 'string' || Array.isArray(hours))) {
      return entries.map(([day, hours]) => `${day}: ${Array.isArray(hours) ? joinList(hours, ', ') : hours}`).join('; ')
    }
  }
  return text(value)
}

/** `{CMS: 'WordPress', 'JavaScript libraries': ['jQuery', 'React']}` -> "CMS: WordPress; JavaScript libraries: jQuery, React" (categories in the file's language). */
export function formatTechnologies(value: unknown, lang: FileLang): string | null {
  if (Array.isArray(value)) return joinList(value)
  if (!isRecord(value)) return text(value)
  const parts: string[] = []
  for (const [category, names] of Object.entries(value)) {
    const list = Array.isArray(names) ? joinList(names, ', ') : text(names)
    if (list) parts.push(`${technologyCategoryLabel(category, lang)}: ${list}`)
  }
  return parts.length ? parts.join('; ') : null
}

export const SOCIAL_NETWORKS = ['facebook', 'linkedin', 'twitter', 'instagram', 'tiktok'] as const
type SocialNetwork = (typeof SOCIAL_NETWORKS)[number]
const SOCIAL_ALIASES: Record<SocialNetwork, string[]> = {
  facebook: ['facebook'],
  linkedin: ['linkedin'],
  twitter: ['twitter', 'x'],
  instagram: ['instagram'],
  tiktok: ['tiktok'],
}

/** The URL of one network in a network -> URL map (keys matched case-insensitively; "x" is twitter). */
export function socialUrl(value: unknown, network: SocialNetwork): string | null {
  if (!isRecord(value)) return null
  for (const [key, url] of Object.entries(value)) {
    if (SOCIAL_ALIASES[network].includes(key.toLowerCase())) {
      const found = Array.isArray(url) ? joinList(url) : text(url)
      if (found) return found
    }
  }
  return null
}

export interface AdminFrFields {
  siren: string | null
  siret: string | null
  legal_name: string | null
  naf_code: string | null
  legal_category: string | null
  headcount_band: string | null
  creation_date: string | null
  match_confidence: number | null
  naf_label: string | null
  legal_form: string | null
  headcount: string | null
  /** The state's label in the file's language when the server gave it (etat_administratif_libelle), else its code. */
  administrative_state: string | null
  head_office_address: string | null
  /** "Jean Louis MARTIN (Gérant); CABINET AUDIT OUEST (Commissaire aux comptes titulaire)". */
  directors: string | null
  /** How the company was identified, labelled in the file's language by the server (else its code). */
  matched_by: string | null
  /** The page of the site that prints the SIRET/SIREN, when the identification rests on it. */
  id_source_page: string | null
  /** The company's open risk per BODACC (a collective procedure, or struck off), labelled in the file's language. */
  risk: string | null
  /** The deciding judgment's date (else the announcement's), YYYY-MM-DD. */
  risk_date: string | null
  risk_tribunal: string | null
  /** The announcement on bodacc.fr. */
  risk_announcement: string | null
}

/** INSEE administrative states: A active, F closed (an establishment), C ceased (a legal unit). */
export const ADMINISTRATIVE_STATES = ['A', 'F', 'C'] as const
/** How a match says the company was identified (admin_fr_info.matched_by); the server labels each. */
export const REGISTRY_MATCH_METHODS = ['siret', 'siren', 'name_postcode', 'site', 'registry_map', 'registry_not_online'] as const
/** A company's open risk per BODACC (app/domain/risk-shield.ts LeadRisk), attached when the match is read. */
export const RISK_STATUSES = ['sauvegarde', 'redressement', 'liquidation', 'radiee'] as const
export type RegistryMatchMethod = (typeof REGISTRY_MATCH_METHODS)[number]

/** The best match of a stored admin_fr_info (`results[0]`, else the object itself), its head office, and a reader of both. */
function registryMatch(value: unknown) {
  const info = isRecord(value) ? value : {}
  const first = Array.isArray(info.results) ? info.results.find(isRecord) : undefined
  const best: Record<string, unknown> = first ?? info
  const siege = isRecord(best.siege) ? best.siege : {}
  const pick = (...keys: string[]): unknown => {
    for (const source of [best, siege, info]) {
      for (const key of keys) {
        const found = source[key]
        if (found !== null && found !== undefined && found !== '') return found
      }
    }
    return null
  }
  return { info, best, siege, pick }
}

/** The codes behind the labels `administrative_state` and `matched_by`, which have no column of their own. */
export function adminFrCodes(value: unknown): {
  administrative_state_code: (typeof ADMINISTRATIVE_STATES)[number] | null
  matched_by_code: RegistryMatchMethod | null
  risk_code: (typeof RISK_STATUSES)[number] | null
} {
  const { info, pick } = registryMatch(value)
  const state = text(pick('etat_administratif'))
  const method = text(info.matched_by)
  const risk = riskOf(info)
  return {
    administrative_state_code: ADMINISTRATIVE_STATES.find((code) => code === state) ?? null,
    matched_by_code: REGISTRY_MATCH_METHODS.find((code) => code === method) ?? null,
    risk_code: RISK_STATUSES.find((code) => code === text(risk.status)) ?? null,
  }
}

/** The risk the read attached to the match (`admin_fr_info.risk`), or an empty record. */
function riskOf(info: Record<string, unknown>): Record<string, unknown> {
  return isRecord(info.risk) ? info.risk : {}
}

/** Directors as one cell: "First names NAME (role)" or "COMPANY (role)", semicolon-separated. */
function formatDirectors(value: unknown): string | null {
  if (!Array.isArray(value)) return null
  const parts = value.filter(isRecord).flatMap((d) => {
    const person = [text(d.prenoms), text(d.nom)].filter(Boolean).join(' ')
    const who = person || text(d.denomination)
    if (!who) return []
    const role = text(d.qualite)
    return [role ? `${who} (${role})` : who]
  })
  return parts.length ? parts.join('; ') : null
}

/**
 * Reads the registry match stored in leads.admin_fr_info, its codes labelled by the server in the file's language
 * (app/.server/enrichment/registry-labels.ts: the tables stay out of the browser bundle). SPEC §3 only says it "has a results
 * list"; the best match is `results[0]` (falling back to the object itself), with the
 * recherche-entreprises field names (siren, siege.siret, nom_raison_sociale, activite_principale,
 * nature_juridique, tranche_effectif_salarie, date_creation) or plain English aliases, and the
 * confidence on the result or on the object (confidence | match_confidence | score).
 */
export function adminFrFields(value: unknown): AdminFrFields {
  const { info, best, siege, pick } = registryMatch(value)
  // Diffusion partielle: a sole trader's name, address and directors are personal data, never exported (even when an
  // older match stored them).
  const diffusion = text(pick('statut_diffusion'))
  const withheld = diffusion !== null && diffusion !== 'O' && (text(pick('nature_juridique'))?.startsWith('1') ?? false)
  const personal = (value: string | null) => (withheld ? null : value)
  return {
    siren: text(pick('siren')),
    siret: text(pick('siret')),
    legal_name: personal(text(pick('nom_raison_sociale', 'nom_complet', 'legal_name', 'raison_sociale'))),
    naf_code: text(pick('activite_principale', 'naf_code', 'naf')),
    legal_category: text(pick('nature_juridique', 'legal_category', 'categorie_juridique')),
    headcount_band: text(pick('tranche_effectif_salarie', 'headcount_band', 'tranche_effectif')),
    creation_date: text(pick('date_creation', 'creation_date')),
    match_confidence: num(pick('confidence', 'match_confidence', 'score')),
    naf_label: text(pick('activite_principale_libelle', 'naf_label')),
    legal_form: text(pick('nature_juridique_libelle', 'libelle_nature_juridique', 'legal_form')),
    headcount: text(pick('tranche_effectif_salarie_libelle', 'headcount')),
    administrative_state: text(pick('etat_administratif_libelle', 'etat_administratif', 'administrative_state')),
    head_office_address: personal(text(pick('siege_adresse', 'head_office_address')) ?? text(siege.adresse)),
    directors: personal(formatDirectors(best.dirigeants ?? info.dirigeants)),
    matched_by: text(info.matched_by_libelle) ?? text(info.matched_by),
    id_source_page: text(info.id_source_page),
    risk: text(riskOf(info).status_libelle) ?? text(riskOf(info).status),
    risk_date: text(riskOf(info).date),
    risk_tribunal: text(riskOf(info).tribunal),
    risk_announcement: text(riskOf(info).url),
  }
}

// The registry columns all read the same jsonb: parse it once per row.
const adminCache = new WeakMap<object, AdminFrFields>()

/** One registry field of a row whose `admin_fr_info` holds the match. */
export function adminFrField(row: Readonly<Record<string, unknown>>, key: keyof AdminFrFields): Cell {
  let fields = adminCache.get(row)
  if (!fields) adminCache.set(row, (fields = adminFrFields(row.admin_fr_info)))
  return fields[key]
}

/** The day part of an ISO timestamp ("2026-11-25"), or null. */
export function isoDay(value: unknown): string | null {
  const date = typeof value === 'string' || value instanceof Date ? new Date(value) : null
  return date && !Number.isNaN(date.getTime()) ? date.toISOString().slice(0, 10) : null
}

/**
 * Where each email (in the lead's order) was found and when: "a@b.fr: https://b.fr/contact (2026-11-25)". An email
 * without a page (the lead source listed it) keeps its date alone.
 */
export function formatEmailSources(emails: unknown, sources: unknown): string | null {
  if (!Array.isArray(emails) || !sources || typeof sources !== 'object') return null
  const byEmail = sources as Record<string, { page?: unknown; found_at?: unknown } | undefined>
  const parts = emails.flatMap((email) => {
    const source = typeof email === 'string' ? byEmail[email] : undefined
    if (!source) return []
    const day = isoDay(source.found_at)
    const page = text(source.page)
    return [`${email}${page ? `: ${page}` : ''}${day ? ` (${day})` : ''}`]
  })
  return parts.length ? parts.join('; ') : null
}
