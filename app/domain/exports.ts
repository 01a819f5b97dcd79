// Export rules (SPEC §3, §4 export status values and toggles, §5 Export / Add enrichment, §8 Export errors).
// Pure: shared by client and server. The server validates with the same functions the form uses. No zod here:
// every page imports this module, and the schemas (export-commands.ts) reach the browser only when a form needs them.
import {
  applyToggleRules,
  ENRICHMENT_TYPES,
  EXPORT_NAME_MAX,
  isFrance,
  newlySelected,
  NO_ENRICHMENT,
  selectedTypes,
  type EnrichmentOptions,
  type EnrichmentType,
  type ExportStatus,
} from './enrichment.ts'

export { EXPORT_NAME_MAX }

// ---------------------------------------------------------------------------
// Error codes and their i18n keys

export const EXPORT_ERROR_CODES = [
  'name_required',
  'name_too_long',
  'no_enrichment',
  'unauthenticated',
  'insufficient_credits',
  'no_geography',
  'add_enrichment_none',
  'not_found',
  'not_resumable',
  'not_completed',
  'forbidden',
  'plan_restricted',
  'invalid_location',
  'max_leads_invalid',
  'idempotency_conflict',
  'forbidden_role',
  'member_cap_reached',
] as const
export type ExportErrorCode = (typeof EXPORT_ERROR_CODES)[number]

/** code → locale key. English texts (SPEC §5, §8) are given beside each key. */
export const EXPORT_ERROR_KEYS: Record<ExportErrorCode, string> = {
  name_required: 'exports.errors.nameRequired', // "The name is required"
  name_too_long: 'exports.errors.nameTooLong', // "The name must be at most 120 characters"
  no_enrichment: 'exports.errors.noEnrichment', // "At least one enrichment option must be selected"
  unauthenticated: 'exports.errors.unauthenticated', // "User not authenticated"
  insufficient_credits: 'exports.errors.insufficientCredits', // "Insufficient credits"
  no_geography: 'exports.errors.noGeography', // "At least one geographic parameter (country, region, department, or city) must be provided"
  add_enrichment_none: 'exports.errors.selectOne', // "Please select at least one enrichment option"
  not_found: 'exports.errors.notFound', // "Export not found"
  not_resumable: 'exports.errors.notResumable', // "This export cannot be resumed"
  not_completed: 'exports.errors.notCompleted', // "Enrichment can only be added to a completed export"
  forbidden: 'exports.errors.forbidden', // "You are not allowed to do this"
  plan_restricted: 'exports.errors.planRestricted', // the failure carries the level's message ("Your plan requires selecting a department")
  invalid_location: 'exports.errors.invalidLocation', // the failure carries the field's message ("Unknown country: …")
  max_leads_invalid: 'exports.errors.maxLeadsInvalid', // "Maximum number of leads must be a whole number from 1 to {{max}}."
  idempotency_conflict: 'exports.errors.idempotencyConflict', // "This idempotency key was used for another export"
  forbidden_role: 'exports.errors.forbiddenRole', // "Your role in this workspace does not allow this"
  member_cap_reached: 'exports.errors.memberCapReached', // "You have used this month's credit allowance set by your team"
}

/** Every locale key the export errors use (the locale test can assert they all exist). */
export const EXPORT_ERROR_MESSAGE_KEYS: readonly string[] = EXPORT_ERROR_CODES.map((code) => EXPORT_ERROR_KEYS[code])

/** The HTTP status each code is answered with by the routes / API. */
export const EXPORT_ERROR_STATUS: Record<ExportErrorCode, number> = {
  name_required: 400,
  name_too_long: 400,
  no_enrichment: 400,
  no_geography: 400,
  add_enrichment_none: 400,
  unauthenticated: 401,
  insufficient_credits: 402,
  forbidden: 403,
  plan_restricted: 403,
  invalid_location: 400,
  not_found: 404,
  not_resumable: 409,
  not_completed: 409,
  max_leads_invalid: 400,
  idempotency_conflict: 409,
  forbidden_role: 403,
  member_cap_reached: 402,
}

export function isExportErrorCode(value: unknown): value is ExportErrorCode {
  return typeof value === 'string' && (EXPORT_ERROR_CODES as readonly string[]).includes(value)
}

export function exportErrorKey(code: ExportErrorCode): string {
  return EXPORT_ERROR_KEYS[code]
}

/** A failure's message key; `fallback` covers codes the table does not know (each action says what failed). */
export function exportErrorMessageKey(code: string | undefined, fallback: string): string {
  return isExportErrorCode(code) ? EXPORT_ERROR_KEYS[code] : fallback
}

/** Where a user gets more credits: the plans page. */
export const PLANS_PATH = '/subscription'

/** Errors a plan change solves: the UI offers the way to the plans beside the message. */
export function errorNeedsPlans(code: unknown): boolean {
  return code === 'insufficient_credits'
}

/** API answers name the plans page when a plan change solves the error (insufficient credits). */
export function plansHint(code: string | undefined): { plansUrl?: string } {
  return errorNeedsPlans(code) ? { plansUrl: PLANS_PATH } : {}
}

/** An export needs at least one credit to start (each success costs 1); the server checks again. */
export function canStartExport(remainingCredits: number): boolean {
  return Number.isFinite(remainingCredits) && remainingCredits > 0
}

// ---------------------------------------------------------------------------
// Create-export validation (SPEC §5 Export)

export interface ExportGeography {
  country: string
  region: string
  department: string
  city: string
  countryCode?: string
}

export interface CreateExportInput {
  name: string
  criteria: ExportGeography & { sector: string }
  enrichmentOptions: EnrichmentOptions
}

/** The form field an error belongs to (so the modal can show it beside the right control). */
type CreateExportField = 'name' | 'enrichmentOptions' | 'geography'

export type CreateExportValidation =
  | { ok: true; name: string; enrichmentOptions: EnrichmentOptions; france: boolean }
  | { ok: false; code: ExportErrorCode; codes: ExportErrorCode[]; fieldErrors: Partial<Record<CreateExportField, ExportErrorCode>> }

export function hasGeography(geography: Pick<ExportGeography, 'country' | 'region' | 'department' | 'city'>): boolean {
  return [geography.country, geography.region, geography.department, geography.city].some((value) => (value ?? '').trim() !== '')
}

/**
 * Validates a new export. The enrichment options are checked after the toggle rules
 * (technologies needs website, admin_fr_info only for France), so what is stored is what was validated.
 */
export function validateCreateExport(input: CreateExportInput): CreateExportValidation {
  const name = (input.name ?? '').trim()
  const france = isFrance(input.criteria.country, input.criteria.countryCode)
  const enrichmentOptions = applyToggleRules(input.enrichmentOptions ?? NO_ENRICHMENT, { france })
  const fieldErrors: Partial<Record<CreateExportField, ExportErrorCode>> = {}
  if (!name) fieldErrors.name = 'name_required'
  else if ([...name].length > EXPORT_NAME_MAX) fieldErrors.name = 'name_too_long'
  if (selectedTypes(enrichmentOptions).length === 0) fieldErrors.enrichmentOptions = 'no_enrichment'
  if (!hasGeography(input.criteria)) fieldErrors.geography = 'no_geography'
  const codes = (['name', 'enrichmentOptions', 'geography'] as const).flatMap((field) => (fieldErrors[field] ? [fieldErrors[field]] : []))
  const [first] = codes
  if (first) return { ok: false, code: first, codes, fieldErrors }
  return { ok: true, name, enrichmentOptions, france }
}

/**
 * Add enrichment (SPEC §5): the options newly chosen on top of those already enriched, after the
 * toggle rules. Empty → `add_enrichment_none`.
 */
export function validateAddEnrichment(
  chosen: readonly EnrichmentType[],
  alreadyEnriched: EnrichmentOptions,
  { france }: { france: boolean },
): { ok: true; options: EnrichmentOptions; added: EnrichmentType[] } | { ok: false; code: 'add_enrichment_none' } {
  const wanted = { ...alreadyEnriched }
  for (const type of chosen) if ((ENRICHMENT_TYPES as readonly string[]).includes(type)) wanted[type] = true
  const options = applyToggleRules(wanted, { france, alreadyEnriched })
  const added = newlySelected(options, alreadyEnriched)
  if (added.length === 0) return { ok: false, code: 'add_enrichment_none' }
  return { ok: true, options, added }
}

// ---------------------------------------------------------------------------
// Display helpers (list and detail pages)

/**
 * finished / total as a percentage in [0, 100], two decimals (the column is numeric(5,2)). Never rounds up to
 * 100 while a task is left (99.999 % shows 99.99), so 100 means done.
 */
export function progressPercentage(done: number, total: number): number {
  if (!Number.isFinite(done) || !Number.isFinite(total) || total <= 0) return 0
  if (done >= total) return 100
  const ratio = Math.max(done / total, 0)
  return Math.min(Math.round(ratio * 10_000) / 100, 99.99)
}

/** The bar shows only while progress is strictly between 0 and 100 (SPEC §2 Exports list). */
export function showProgressBar(percentage: number | null | undefined): boolean {
  return typeof percentage === 'number' && percentage > 0 && percentage < 100
}

export type StatusBadgeKind = 'processing' | 'completed' | 'failed' | 'interrupted'

/** pending and processing show a "processing" badge with a spinner, and so does any unknown value (SPEC §4). */
export function statusBadge(status: string | null | undefined): { kind: StatusBadgeKind; spinner: boolean } {
  switch (status) {
    case 'completed':
    case 'failed':
    case 'interrupted':
      return { kind: status, spinner: false }
    default:
      return { kind: 'processing', spinner: true }
  }
}

/** Still running: pages revalidate (JS) or meta-refresh (no JS) while true. */
export function isExportActive(status: string | null | undefined): boolean {
  return statusBadge(status).kind === 'processing'
}

/** Download is offered for completed, interrupted and failed exports. */
export function canDownload(status: string | null | undefined): boolean {
  return status === 'completed' || status === 'interrupted' || status === 'failed'
}

/** Add enrichment is offered only on completed exports. */
export function canAddEnrichment(status: string | null | undefined): boolean {
  return status === 'completed'
}

/** The Resume banner: the export says it can be resumed, and it is not running. */
export function canResume(exp: { status: string | null | undefined; can_resume: boolean | null | undefined }): boolean {
  return exp.can_resume === true && !isExportActive(exp.status) && exp.status !== 'completed'
}

/**
 * The detail page's Resume banner is the *interrupted* banner (SPEC §2): a failed export the server
 * could resume keeps its failed badge and no banner.
 */
export function offersResume(exp: { status: string | null | undefined; can_resume: boolean | null | undefined }): boolean {
  return exp.status === 'interrupted' && canResume(exp)
}

/** Deleting a running export warns that the process stops and the data is lost (SPEC §8). */
export function deleteWarnsRunning(status: string | null | undefined): boolean {
  return status === 'pending' || status === 'processing'
}

/** The status filter of the export list, in the order SPEC §2 lists (and the select shows) them. */
export const EXPORT_STATUS_FILTERS = ['all', 'completed', 'processing', 'pending', 'failed', 'interrupted'] as const satisfies readonly ('all' | ExportStatus)[]
export type ExportStatusFilter = (typeof EXPORT_STATUS_FILTERS)[number]

/** progress_info as the worker writes it (jsonb on exports). */
export interface ExportProgressInfo {
  phase: 'search' | 'enrichment' | 'done'
  /** finished tasks (enrichment) or leads found so far (search) */
  done: number
  /** total tasks (enrichment) or the lead cap (search) */
  total: number
  /** tasks that ended in success (each charged 1 credit) */
  successes: number
}
