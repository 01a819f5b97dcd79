import { errorNeedsPlans, PLANS_PATH } from '#app/domain/exports.ts'

/** Error codes of the export service → locale keys (SPEC §5, §8 texts). */
const KEYS: Record<string, string> = {
  name_required: 'exports.errors.nameRequired',
  name_too_long: 'exports.errors.nameTooLong',
  no_enrichment: 'exports.errors.noEnrichment',
  unauthenticated: 'exports.errors.unauthenticated',
  insufficient_credits: 'exports.errors.insufficientCredits',
  no_geography: 'exports.errors.noGeography',
  add_enrichment_none: 'exports.errors.selectOne',
  not_found: 'exports.errors.notFound',
  not_resumable: 'exports.errors.notResumable',
  not_completed: 'exports.errors.notCompleted',
  forbidden: 'exports.errors.forbidden',
  plan_restricted: 'exports.errors.planRestricted',
}

export function exportErrorMessageKey(code: string | undefined, fallback: string) {
  return (code && KEYS[code]) || fallback
}

/** API answers name the plans page when a plan change solves the error (insufficient credits). */
export function plansHint(code: string | undefined): { plansUrl?: string } {
  return errorNeedsPlans(code) ? { plansUrl: PLANS_PATH } : {}
}
