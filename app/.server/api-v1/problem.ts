// RFC 9457 problem details, the only error shape of /api/v1 (../shared/API.md "Requests and answers").
// `code` is stable and machine-readable; `detail` is for people, in the request's language.
import { STATUS_CODES } from 'node:http'

/** The codes a client can rely on (documented in the OpenAPI document and on /developers). */
export const PROBLEM_CODES = [
  'invalid_api_key',
  'validation_failed',
  'bad_json',
  'invalid_cursor',
  'unsupported_media_type',
  'payload_too_large',
  'not_found',
  'method_not_allowed',
  'plan_restricted',
  'insufficient_credits',
  'member_cap_reached',
  'budget_too_small',
  'forbidden_role',
  'invalid_location',
  'not_resumable',
  'not_completed',
  'too_many_entries',
  'too_many_endpoints',
  'too_many_saved_searches',
  'too_many_connections',
  'crm_refused',
  'integrations_unconfigured',
  'file_refused',
  'delivery_in_flight',
  'idempotency_conflict',
  'rate_limited',
  'source_unavailable',
  'service_unavailable',
  'internal_error',
] as const
export type ProblemCode = (typeof PROBLEM_CODES)[number]

export interface ProblemFieldError {
  path: string
  message: string
}

/** Thrown by operations and the dispatcher; answered as application/problem+json. */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: ProblemCode,
    readonly detail: string,
    readonly errors?: ProblemFieldError[],
    readonly headers: Record<string, string> = {},
  ) {
    super(`${status} ${code}: ${detail}`)
    this.name = 'ApiProblem'
  }
}

export function apiProblem(status: number, code: ProblemCode, detail: string, errors?: ProblemFieldError[], headers?: Record<string, string>): never {
  throw new ApiProblem(status, code, detail, errors, headers)
}

export function problemBody(problem: ApiProblem, origin: string) {
  return {
    type: `${origin}/developers#error-${problem.code}`,
    title: STATUS_CODES[problem.status] ?? 'Error',
    status: problem.status,
    detail: problem.detail,
    code: problem.code,
    ...(problem.errors?.length ? { errors: problem.errors } : {}),
  }
}
