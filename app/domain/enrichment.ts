// Enrichment options (SPEC §3, §4 Enrichment toggles, §5 Export / Add enrichment). Pure: shared by client and server.

export const ENRICHMENT_TYPES = ['phone', 'website', 'email', 'technologies', 'social', 'admin_fr_info'] as const
export type EnrichmentType = (typeof ENRICHMENT_TYPES)[number]
export type EnrichmentOptions = Record<EnrichmentType, boolean>

/** The export_leads status column of each option (the spec names the social one social_media). */
export const STATUS_COLUMN: Record<EnrichmentType, string> = {
  phone: 'phone_status',
  website: 'website_status',
  email: 'email_status',
  technologies: 'technologies_status',
  social: 'social_media_status',
  admin_fr_info: 'admin_fr_info_status',
}

export const NO_ENRICHMENT: EnrichmentOptions = { phone: false, website: false, email: false, technologies: false, social: false, admin_fr_info: false }

export const EXPORT_STATUSES = ['pending', 'processing', 'completed', 'failed', 'interrupted'] as const
export type ExportStatus = (typeof EXPORT_STATUSES)[number]

export const LEAD_ENRICHMENT_STATUSES = ['not_required', 'pending', 'success', 'not_found', 'failed'] as const
export type LeadEnrichmentStatus = (typeof LEAD_ENRICHMENT_STATUSES)[number]

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

/**
 * Applies the toggle rules: technologies only while website is on (switching website off
 * switches technologies off); admin_fr_info only for France; options already enriched stay on
 * and cannot change.
 */
export function applyToggleRules(
  options: EnrichmentOptions,
  { france, alreadyEnriched = NO_ENRICHMENT }: { france: boolean; alreadyEnriched?: EnrichmentOptions },
): EnrichmentOptions {
  const next = { ...options }
  for (const type of ENRICHMENT_TYPES) if (alreadyEnriched[type]) next[type] = true
  if (!next.website) next.technologies = false
  if (!france) next.admin_fr_info = false
  return next
}

/** Which toggles are shown and which are locked, for the enrichment modals. */
export function toggleStates(options: EnrichmentOptions, { france, alreadyEnriched = NO_ENRICHMENT }: { france: boolean; alreadyEnriched?: EnrichmentOptions }) {
  return ENRICHMENT_TYPES.filter((type) => type !== 'admin_fr_info' || france).map((type) => ({
    type,
    checked: options[type],
    disabled: alreadyEnriched[type] || (type === 'technologies' && !options.website),
    alreadyEnriched: alreadyEnriched[type],
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
