// An export command's refusal (service.ts ExportFailure) as problem details: the same codes the forms show, with the
// API's statuses (422 for a field, never 403 for someone else's id).
import type { TFunction } from 'i18next'
import type { ExportFailure } from '#app/.server/exports/service.ts'
import { env } from '#app/.server/env.server.ts'
import { exportErrorMessageKey } from '#app/domain/exports.ts'
import { apiProblem, type ProblemCode } from './problem.ts'

const FIELD_OF: Partial<Record<ExportFailure['code'], string>> = {
  name_required: 'body.name',
  name_too_long: 'body.name',
  no_enrichment: 'body.enrichments',
  add_enrichment_none: 'body.enrichments',
  no_geography: 'body.criteria',
  max_leads_invalid: 'body.max_leads',
}

const PROBLEM_OF: Partial<Record<ExportFailure['code'], [number, ProblemCode]>> = {
  insufficient_credits: [402, 'insufficient_credits'],
  plan_restricted: [403, 'plan_restricted'],
  invalid_location: [422, 'invalid_location'],
  not_found: [404, 'not_found'],
  forbidden: [404, 'not_found'],
  unauthenticated: [401, 'invalid_api_key'],
  not_resumable: [409, 'not_resumable'],
  not_completed: [409, 'not_completed'],
  idempotency_conflict: [409, 'idempotency_conflict'],
  forbidden_role: [403, 'forbidden_role'],
  member_cap_reached: [402, 'member_cap_reached'],
}

export function exportProblem(failure: ExportFailure, t: TFunction): never {
  const detail = t(failure.messageKey ?? exportErrorMessageKey(failure.code, 'exports.errors.createFailed'), { max: env.EXPORT_MAX_LEADS })
  const field = FIELD_OF[failure.code]
  if (field) apiProblem(422, 'validation_failed', detail, [{ path: field, message: detail }])
  const [status, code] = PROBLEM_OF[failure.code] ?? [failure.status, 'validation_failed']
  return apiProblem(status, code, detail, code === 'invalid_location' ? [{ path: 'body.criteria', message: detail }] : undefined)
}
