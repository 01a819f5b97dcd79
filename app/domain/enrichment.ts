// Enrichment options (SPEC §3, §4 Enrichment toggles, §5 Export / Add enrichment). Pure: shared by client and server.
// The types themselves, and what each one needs, are the table of enrichment-types.ts.
import { ENRICHMENT_TABLE, ENRICHMENT_TYPES, type EnrichmentType } from './enrichment-types.ts'

export { ENRICHMENT_TYPES, STATUS_COLUMN, type EnrichmentType } from './enrichment-types.ts'

export type EnrichmentOptions = Record<EnrichmentType, boolean>

export const NO_ENRICHMENT: EnrichmentOptions = Object.fromEntries(ENRICHMENT_TYPES.map((type) => [type, false])) as EnrichmentOptions

export type ExportStatus = 'pending' | 'processing' | 'completed' | 'failed' | 'interrupted'

export type LeadEnrichmentStatus = 'not_required' | 'pending' | 'success' | 'not_found' | 'failed'

/**
 * Reads stored options: booleans, where `social` may be an object that counts as true when
 * any of its values is true (SPEC §3).
 */
export function normalizeEnrichmentOptions(raw: unknown): EnrichmentOptions {
  const source = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {}
  const options = { ...NO_ENRICHMENT }
  for (const type of ENRICHMENT_TYPES) {
    const value = source[type]
    options[type] = value && typeof value === 'object' ? Object.values(value).some((v) => v === true) : value === true
  }
  return options
}

export function selectedTypes(options: EnrichmentOptions): EnrichmentType[] {
  return ENRICHMENT_TYPES.filter((type) => options[type])
}

/** France is the only country with registry data. */
export function isFrance(country: string | null | undefined, countryCode?: string | null): boolean {
  const code = (countryCode ?? '').trim().toUpperCase()
  if (code) return code === 'FR'
  const name = (country ?? '').trim().toLowerCase()
  return name === 'france' || name === 'fr'
}

/** Whether a type may be chosen at all: France-only types elsewhere may not. */
function offered(entry: { franceOnly: boolean }, france: boolean): boolean {
  return france || !entry.franceOnly
}

/**
 * Applies the toggle rules of the table: a type that needs another (technologies needs website) is off while that
 * one is off; a France-only type (admin_fr_info) is off elsewhere; options already enriched stay on and cannot change.
 */
export function applyToggleRules(
  options: EnrichmentOptions,
  { france, alreadyEnriched = NO_ENRICHMENT }: { france: boolean; alreadyEnriched?: EnrichmentOptions },
): EnrichmentOptions {
  const next = { ...options }
  for (const type of ENRICHMENT_TYPES) if (alreadyEnriched[type]) next[type] = true
  // In table order, so a type needing another is decided after it.
  for (const entry of ENRICHMENT_TABLE) {
    if ((entry.needs && !next[entry.needs]) || !offered(entry, france)) next[entry.key] = false
  }
  return next
}

/** Which toggles are shown and which are locked, for the enrichment modals. */
export function toggleStates(options: EnrichmentOptions, { france, alreadyEnriched = NO_ENRICHMENT }: { france: boolean; alreadyEnriched?: EnrichmentOptions }) {
  return ENRICHMENT_TABLE.filter((entry) => offered(entry, france)).map((entry) => ({
    type: entry.key,
    labelKey: entry.labelKey,
    hintKey: entry.hintKey,
    checked: options[entry.key],
    disabled: alreadyEnriched[entry.key] || Boolean(entry.needs && !options[entry.needs]),
    alreadyEnriched: alreadyEnriched[entry.key],
  }))
}

/** Options newly chosen on top of those already enriched (Add enrichment). */
export function newlySelected(options: EnrichmentOptions, alreadyEnriched: EnrichmentOptions): EnrichmentType[] {
  return ENRICHMENT_TYPES.filter((type) => options[type] && !alreadyEnriched[type])
}

export const EXPORT_NAME_MAX = 120

/** The options a form submits (one `options` value per checked box), as the toggle rules allow them. */
export function optionsFromValues(
  values: readonly string[],
  rules: { france: boolean; alreadyEnriched?: EnrichmentOptions },
): EnrichmentOptions {
  const chosen = new Set(values)
  return applyToggleRules(Object.fromEntries(ENRICHMENT_TYPES.map((type) => [type, chosen.has(type)])) as EnrichmentOptions, rules)
}
