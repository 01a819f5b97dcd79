/**
 * The registry-first search's rules (issue 22), pure: what the filters of `/companies` are, how they become
 * recherche-entreprises `GET /search` parameters, how an answer becomes establishments, and how a set larger than the
 * registry's 10 000-result cap is split into smaller searches.
 *
 * The registry filters legal units (activity, legal form, headcount, labels) and their establishments (place, state);
 * each result is a legal unit with the establishments that matched (`matching_etablissements`). One result gives one
 * establishment: the first matching one in the place searched (active first when only active ones are asked), else
 * the head office.
 */
import { coordinate } from './geo-distance.ts'
import { z } from 'zod'

/** Results per page the registry allows at most. */
const REGISTRY_PAGE_SIZE = 25
/** The registry never pages beyond this many results (page × per_page ≤ 10 000) and caps total_results there. */
export const REGISTRY_RESULT_CAP = 10_000

/** INSEE "tranches d'effectif salarié", smallest first (labels: registry-labels.ts headcountBandLabel). */
export const HEADCOUNT_BANDS = ['NN', '00', '01', '02', '03', '11', '12', '21', '22', '31', '32', '41', '42', '51', '52', '53'] as const
export type HeadcountBand = (typeof HEADCOUNT_BANDS)[number]

/** Employees a band stands for (NN: the unit employs nobody, or says nothing); max null: no upper bound. */
export const HEADCOUNT_RANGES: Readonly<Record<HeadcountBand, { min: number; max: number | null } | null>> = {
  NN: null,
  '00': { min: 0, max: 0 },
  '01': { min: 1, max: 2 },
  '02': { min: 3, max: 5 },
  '03': { min: 6, max: 9 },
  '11': { min: 10, max: 19 },
  '12': { min: 20, max: 49 },
  '21': { min: 50, max: 99 },
  '22': { min: 100, max: 199 },
  '31': { min: 200, max: 249 },
  '32': { min: 250, max: 499 },
  '41': { min: 500, max: 999 },
  '42': { min: 1000, max: 1999 },
  '51': { min: 2000, max: 4999 },
  '52': { min: 5000, max: 9999 },
  '53': { min: 10_000, max: null },
}

/**
 * Legal-form families a prospector thinks in, as INSEE legal categories (nature_juridique, 4 digits): the codes
 * starting with a prefix, plus listed codes the catalogue may lack. Labels: companies.legalForms.<family>.
 */
const LEGAL_FORM_FAMILIES = {
  soleTrader: { prefixes: ['10'], codes: ['1000'] },
  // 54xx: every SARL, the single-member EURL (5498) included.
  sarl: { prefixes: ['54'], codes: ['5498', '5499'] },
  // 57xx: SAS, the single-member SASU (5720), SELAS.
  sas: { prefixes: ['57'], codes: ['5710', '5720'] },
  // 55xx board of directors, 56xx management board.
  sa: { prefixes: ['55', '56'], codes: ['5599', '5699'] },
  association: { prefixes: ['92'], codes: ['9220'] },
} as const satisfies Record<string, { prefixes: readonly string[]; codes: readonly string[] }>
export type LegalFormFamily = keyof typeof LEGAL_FORM_FAMILIES
const LEGAL_FORM_FAMILY_IDS = Object.keys(LEGAL_FORM_FAMILIES) as [LegalFormFamily, ...LegalFormFamily[]]

/** Registry labels (companies.registryLabels.<label>) and the `/search` parameter each sets to true. */
const REGISTRY_LABELS = {
  rge: 'est_rge',
  qualiopi: 'est_qualiopi',
  ess: 'est_ess',
  bio: 'est_bio',
  trainingOrganisation: 'est_organisme_formation',
  inclusion: 'est_siae',
  missionCompany: 'est_societe_mission',
  livingHeritage: 'est_patrimoine_vivant',
} as const
export type RegistryLabel = keyof typeof REGISTRY_LABELS
const REGISTRY_LABEL_IDS = Object.keys(REGISTRY_LABELS) as [RegistryLabel, ...RegistryLabel[]]

const NAF_CODE = /^\d{2}\.\d{2}[A-Z]$/
/** INSEE codes: region 2 digits, department 2–3 (2A/2B), commune 5 (2A004), postcode 5 digits. */
const REGION_CODE = /^\d{2}$/
const DEPARTMENT_CODE = /^(\d{2}|2[AB]|97\d)$/
const COMMUNE_CODE = /^(\d{5}|2[AB]\d{3})$/
const POSTAL_CODE = /^\d{5}$/

/** Where: the narrowest level the user chose (none: all of France). Codes, as the registry takes them. */
const registryPlaceSchema = z.union([
  z.object({ kind: z.literal('france') }),
  z.object({ kind: z.literal('region'), code: z.string().regex(REGION_CODE) }),
  z.object({ kind: z.literal('department'), code: z.string().toUpperCase().regex(DEPARTMENT_CODE) }),
  z.object({ kind: z.literal('commune'), code: z.string().toUpperCase().regex(COMMUNE_CODE) }),
  z.object({ kind: z.literal('postcode'), code: z.string().regex(POSTAL_CODE) }),
])
export type RegistryPlace = z.output<typeof registryPlaceSchema>

/** A calendar day, YYYY-MM-DD, that exists (2025-02-30 does not). */
const isoDaySchema = z.iso.date()

export const registryFiltersSchema = z
  .object({
    /** A category's NAF codes, or codes picked by label; several at once (empty: every activity). */
    nafCodes: z.array(z.string().trim().toUpperCase().regex(NAF_CODE)).max(100).default([]),
    place: registryPlaceSchema.default({ kind: 'france' }),
    headcountBands: z.array(z.enum(HEADCOUNT_BANDS)).default([]),
    legalForms: z.array(z.enum(LEGAL_FORM_FAMILY_IDS)).default([]),
    /** Active establishments of active units only (the default). */
    activeOnly: z.boolean().default(true),
    labels: z.array(z.enum(REGISTRY_LABEL_IDS)).default([]),
    /**
     * Establishments created after this day (exclusive). Set, the establishments come from the local registry store
     * (registry-events/local-search.ts), not from the registry's API: the API cannot filter on a creation date.
     */
    createdAfter: isoDaySchema.optional(),
    /** …and on or before this day: the new-companies watch's window ends at its run's cutoff. Only with createdAfter. */
    createdBefore: isoDaySchema.optional(),
  })
  .superRefine((filters, ctx) => {
    // The store keeps no labels (RGE, Qualiopi…): a filter it cannot apply is refused, never silently dropped.
    if (filters.createdAfter && filters.labels.length) ctx.addIssue({ code: 'custom', path: ['labels'], message: 'companies.errors.labelsWithCreatedAfter' })
    if (filters.createdBefore && !filters.createdAfter) ctx.addIssue({ code: 'custom', path: ['createdBefore'], message: 'companies.errors.invalidFilters' })
  })
export type RegistryFilters = z.output<typeof registryFiltersSchema>
export type RegistryFiltersInput = z.input<typeof registryFiltersSchema>

/** The INSEE codes of `families`, from `catalogue` (every known code) and each family's listed codes; sorted. */
export function legalFormCodes(families: readonly LegalFormFamily[], catalogue: readonly string[]): string[] {
  const codes = new Set<string>()
  for (const family of families) {
    const rule = LEGAL_FORM_FAMILIES[family]
    for (const code of rule.codes) codes.add(code)
    for (const code of catalogue) if (/^\d{4}$/.test(code) && rule.prefixes.some((prefix) => code.startsWith(prefix))) codes.add(code)
  }
  return [...codes].sort()
}

/** The family a legal category belongs to, or null (another form: cooperative, public body…). */
export function legalFormFamilyOf(code: string | null): LegalFormFamily | null {
  if (!code) return null
  for (const family of LEGAL_FORM_FAMILY_IDS) {
    const rule = LEGAL_FORM_FAMILIES[family]
    if ((rule.codes as readonly string[]).includes(code) || rule.prefixes.some((prefix) => code.startsWith(prefix))) return family
  }
  return null
}

const PLACE_PARAMETER = { region: 'region', department: 'departement', commune: 'code_commune', postcode: 'code_postal' } as const

/**
 * `/search` query parameters for one page. Lists are sorted and deduplicated, so equal filters give equal queries
 * (the cache key). `legalFormCatalogue`: every known legal category code (registry-legal-categories.ts).
 */
export function registryParams(filters: RegistryFilters, options: { page: number; perPage?: number; legalFormCatalogue: readonly string[] }): Record<string, string> {
  const list = (values: readonly string[]) => [...new Set(values)].sort().join(',')
  const params: Record<string, string> = {}
  if (filters.nafCodes.length) params.activite_principale = list(filters.nafCodes)
  if (filters.place.kind !== 'france') params[PLACE_PARAMETER[filters.place.kind]] = filters.place.code
  if (filters.headcountBands.length) params.tranche_effectif_salarie = list(filters.headcountBands)
  if (filters.legalForms.length) params.nature_juridique = legalFormCodes(filters.legalForms, options.legalFormCatalogue).join(',')
  if (filters.activeOnly) params.etat_administratif = 'A'
  for (const label of [...new Set(filters.labels)].sort()) params[REGISTRY_LABELS[label]] = 'true'
  params.page = String(Math.max(1, Math.floor(options.page)))
  params.per_page = String(Math.min(REGISTRY_PAGE_SIZE, Math.max(1, Math.floor(options.perPage ?? REGISTRY_PAGE_SIZE))))
  return Object.fromEntries(Object.entries(params).sort(([a], [b]) => (a < b ? -1 : 1)))
}

/** The registry's total as shown: "10 000+" once it reaches the cap (the registry counts no further). */
export function registryTotal(totalResults: unknown): { total: number; capped: boolean } {
  const total = typeof totalResults === 'number' && Number.isFinite(totalResults) && totalResults > 0 ? Math.floor(totalResults) : 0
  return total >= REGISTRY_RESULT_CAP ? { total: REGISTRY_RESULT_CAP, capped: true } : { total, capped: false }
}

/** Pages to read for `wanted` results of a set of `total`, within the cap. */
export function pagesFor(total: number, wanted: number, perPage = REGISTRY_PAGE_SIZE): number {
  const reachable = Math.min(total, wanted, REGISTRY_RESULT_CAP)
  return Math.ceil(Math.max(0, reachable) / perPage)
}

/**
 * The narrower searches a capped set splits into: France and a region by department, a department by commune
 * (`children` lists them, from the geography data); a commune or postcode cannot be split (null).
 */
export function splitPlan(filters: RegistryFilters, children: readonly string[]): RegistryFilters[] | null {
  const kind = filters.place.kind
  if (kind === 'commune' || kind === 'postcode' || children.length === 0) return null
  const childKind = kind === 'department' ? 'commune' : 'department'
  return children.map((code) => ({ ...filters, place: { kind: childKind, code } }))
}

// ————— Results —————

interface RegistryDirector {
  /** A person: surname and first names; a company: its name (denomination). */
  name: string
  firstNames: string | null
  role: string | null
  kind: 'person' | 'company'
}

export interface RegistryEstablishment {
  siren: string
  siret: string | null
  /** Null for a sole trader under "diffusion partielle" (the person's name is withheld). */
  name: string | null
  /** Null for a sole trader under "diffusion partielle". */
  address: string | null
  postalCode: string | null
  communeCode: string | null
  city: string | null
  /** Where the registry geocoded the establishment (WGS 84), null when it did not (or withheld it). */
  latitude: number | null
  longitude: number | null
  /** NAF rév. 2 (what categories and filters use): the establishment's, else the unit's. */
  activityCode: string | null
  /** NAF 2025, while the registry sends it (temporary field, removed on 2027-01-01). */
  activityCodeNaf25: string | null
  headcountBand: HeadcountBand | null
  legalFormCode: string | null
  legalFormFamily: LegalFormFamily | null
  creationDate: string | null
  active: boolean
  headOffice: boolean
  /** Directors of a company; never any for a sole trader (the entry is the person). */
  directors: RegistryDirector[]
  /** A sole trader under "diffusion partielle": name, address and directors are withheld. */
  personalDataWithheld: boolean
  /** Generated by the offline demo registry. */
  demo: boolean
}

/** The registry's placeholder for withheld data ("[NON-DIFFUSIBLE]"). */
const WITHHELD = /NON[- ]DIFFUSIBLE|^\[ND\]$/i

function text(value: unknown): string | null {
  const out = typeof value === 'string' && value.trim() ? value.trim() : typeof value === 'number' ? String(value) : null
  return out && WITHHELD.test(out) ? null : out
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null
}

function inPlace(establishment: Record<string, unknown>, place: RegistryPlace): boolean {
  switch (place.kind) {
    case 'france':
      return true
    case 'postcode':
      return text(establishment.code_postal) === place.code
    case 'commune':
      return text(establishment.commune) === place.code
    case 'department':
      return (text(establishment.commune) ?? '').startsWith(place.code)
    case 'region':
      return text(establishment.region) === null || text(establishment.region) === place.code
  }
}

function directorsOf(result: Record<string, unknown>): RegistryDirector[] {
  const list = Array.isArray(result.dirigeants) ? result.dirigeants : []
  return list.slice(0, 20).flatMap((entry): RegistryDirector[] => {
    const director = record(entry)
    if (!director) return []
    const company = text(director.denomination)
    const surname = text(director.nom)
    if (company) return [{ name: company, firstNames: null, role: text(director.qualite), kind: 'company' }]
    if (surname) return [{ name: surname, firstNames: text(director.prenoms), role: text(director.qualite), kind: 'person' }]
    return []
  })
}

/**
 * One `/search` result as the establishment the search found (see the module comment), or null when it is not an
 * object with a SIREN. Privacy as the enrichment's match (enrichment/registry.ts): a sole trader never lists
 * directors, and under "diffusion partielle" its name and address are not kept either.
 */
export function toRegistryEstablishment(value: unknown, filters: Pick<RegistryFilters, 'place' | 'activeOnly'>): RegistryEstablishment | null {
  const result = record(value)
  const siren = result && text(result.siren)
  if (!result || !siren) return null
  const siege = record(result.siege)
  const matching = (Array.isArray(result.matching_etablissements) ? result.matching_etablissements : []).map(record).filter((e): e is Record<string, unknown> => e !== null)
  const candidates = [...matching, ...(siege ? [siege] : [])].filter((e) => inPlace(e, filters.place))
  const active = candidates.filter((e) => text(e.etat_administratif) === 'A')
  const place = (filters.activeOnly ? active[0] : undefined) ?? candidates[0] ?? matching[0] ?? siege ?? {}
  const legalFormCode = text(result.nature_juridique)
  const complements = record(result.complements)
  const soleTrader = (legalFormCode?.startsWith('1') ?? false) || complements?.est_entrepreneur_individuel === true
  const diffusion = text(result.statut_diffusion)
  const withheld = soleTrader && diffusion !== null && diffusion !== 'O'
  const band = text(result.tranche_effectif_salarie)
  const unitActive = (text(result.etat_administratif) ?? 'A') === 'A'
  return {
    siren,
    siret: text(place.siret),
    name: withheld ? null : (text(result.nom_complet) ?? text(result.nom_raison_sociale)),
    address: withheld ? null : text(place.adresse),
    postalCode: text(place.code_postal),
    communeCode: text(place.commune),
    city: text(place.libelle_commune),
    // A withheld address is withheld as a position too.
    latitude: withheld ? null : coordinate(place.latitude, 90),
    longitude: withheld ? null : coordinate(place.longitude, 180),
    activityCode: text(place.activite_principale) ?? text(result.activite_principale),
    activityCodeNaf25: text(place.activite_principale_naf25) ?? text(result.activite_principale_naf25),
    headcountBand: band && (HEADCOUNT_BANDS as readonly string[]).includes(band) ? (band as HeadcountBand) : null,
    legalFormCode,
    legalFormFamily: legalFormFamilyOf(legalFormCode),
    creationDate: text(place.date_creation) ?? text(result.date_creation),
    active: unitActive && (text(place.etat_administratif) ?? 'A') === 'A',
    headOffice: place.est_siege === true || (siege !== null && text(siege.siret) !== null && text(siege.siret) === text(place.siret)),
    directors: soleTrader ? [] : directorsOf(result),
    personalDataWithheld: withheld,
    demo: result.demo === true,
  }
}
