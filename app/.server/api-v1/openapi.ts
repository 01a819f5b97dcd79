// The OpenAPI 3.1 document of /api/v1, generated from the operations' own zod schemas (operations/index.ts): the
// schemas that validate requests are the ones described, so the document cannot drift from the behaviour.
import { PERMISSIONS, type Permission } from '#app/domain/workspace-roles.ts'
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi'
import { z } from 'zod'
import { API_BASE, type ApiOperation } from './operation.ts'
import { API_OPERATIONS } from './operations/index.ts'
import { webhookEventsDocument } from './operations/webhooks.ts'
import { PROBLEM_CODES, type ProblemCode } from './problem.ts'

const ProblemSchema = z
  .object({
    type: z.string().meta({ description: 'A link to the description of this kind of problem.' }),
    title: z.string().meta({ description: "The HTTP status's reason phrase." }),
    status: z.int(),
    detail: z.string().meta({ description: "What went wrong, for people, in the request's language (Accept-Language)." }),
    code: z.enum(PROBLEM_CODES).meta({ description: 'Stable and machine-readable: branch on this, not on `detail`.' }),
    errors: z
      .array(z.object({ path: z.string().meta({ example: 'body.criteria.country' }), message: z.string() }))
      .optional()
      .meta({ description: 'For `validation_failed` (422) and `invalid_cursor` (400): each refused field or parameter.' }),
  })
  .meta({ id: 'Problem', description: 'An error (RFC 9457 problem details), served as application/problem+json.' })

const RATE_LIMIT_HEADERS = z.object({
  'RateLimit-Limit': z.string().meta({
    description: 'Requests allowed per window by the tightest limit counted for this request: the key, the user (all keys), or the command (exports created, previews…).',
    example: '600',
  }),
  'RateLimit-Remaining': z.string().meta({ description: 'Requests left in the current window of that limit.', example: '599' }),
  'RateLimit-Reset': z.string().meta({ description: 'Seconds until that window resets.', example: '60' }),
})

interface ProblemResponse {
  descriptions: string[]
  codes: Set<ProblemCode>
}

/** The codes a description names in backticks (`not_found`): the convention every operation's errors follow. */
function codesNamed(description: string): ProblemCode[] {
  return [...description.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]!).filter((code): code is ProblemCode => (PROBLEM_CODES as readonly string[]).includes(code))
}

/**
 * Refusals the dispatcher itself may give for any operation (dispatch.ts), before or around its handler: so every
 * operation, present or added later, documents them without saying so itself.
 */
function commonProblems(operation: ApiOperation): Array<[number, string]> {
  const query = operation.query && 'shape' in operation.query ? (operation.query.shape as Record<string, unknown>) : {}
  return [
    [401, 'Missing, malformed, unknown or revoked API key (`invalid_api_key`).'],
    [400, 'The body is not JSON, or a NUL character was sent (`bad_json`, `validation_failed`).'],
    ...('cursor' in query ? [[400, 'The `cursor` is not one this list gave (`invalid_cursor`).'] as [number, string]] : []),
    [404, "No such resource for this key's owner (`not_found`): another user's id is not found either."],
    ...(operation.requires ? [[403, `The key's member has a role that may not do this (\`forbidden_role\`): it needs ${PERMISSIONS[operation.requires as Permission]} or above.`] as [number, string]] : []),
    [405, 'The method is not one this path takes (`method_not_allowed`).'],
    [413, 'The body is over 1 MB (`payload_too_large`).'],
    [415, 'The body is not application/json, or its encoding is unknown (`unsupported_media_type`).'],
    [422, 'A field or query parameter is missing, invalid or unknown (`validation_failed`), each listed in `errors`.'],
    [
      429,
      `Too many requests (\`rate_limited\`): per key, per user across their keys, per client address after failed keys${operation.limit ? ', and for this command per user (its own limit; a refused command is not counted, nor a replay with the same Idempotency-Key)' : ''}. Wait Retry-After seconds; the RateLimit-* headers show the tightest limit.`,
    ],
    [500, 'An unexpected error on our side (`internal_error`): retry; give the X-Request-Id to support if it persists.'],
    [503, 'A service we depend on is unavailable right now (`service_unavailable`): retry after Retry-After seconds.'],
  ]
}

/** A problem answer whose `code` is one of `codes`: a generated client can branch on them. */
function problemResponse({ descriptions, codes }: ProblemResponse) {
  const order = PROBLEM_CODES.filter((code) => codes.has(code))
  return {
    description: descriptions.join(' '),
    headers: RATE_LIMIT_HEADERS,
    content: {
      'application/problem+json': {
        schema: ProblemSchema.extend({
          code: z.enum(order as [ProblemCode, ...ProblemCode[]]).meta({ description: `Stable and machine-readable: branch on this, not on \`detail\`. Here: ${order.map((code) => `\`${code}\``).join(', ')}.` }),
        }),
      },
    },
  }
}

function describe(operation: ApiOperation): ZodOpenApiOperationObject {
  const problems = new Map<number, ProblemResponse>()
  const addProblem = (status: number, description: string) => {
    const codes = codesNamed(description)
    if (!codes.length) throw new Error(`${operation.id}: the ${status} answer must name its code(s) in backticks, e.g. (\`not_found\`)`)
    const entry = problems.get(status) ?? { descriptions: [], codes: new Set<ProblemCode>() }
    entry.descriptions.push(description)
    for (const code of codes) entry.codes.add(code)
    problems.set(status, entry)
  }
  const responses: Record<string, unknown> = {}
  for (const [status, spec] of Object.entries(operation.responses)) {
    if (Number(status) >= 400) {
      addProblem(Number(status), spec.description)
      continue
    }
    const types = spec.contentTypes ?? (spec.schema ? ['application/json'] : [])
    responses[status] = {
      description: spec.description,
      headers: spec.location
        ? RATE_LIMIT_HEADERS.extend({ Location: z.string().meta({ description: `The path of the answered object: ${spec.location}.`, example: spec.location }) })
        : RATE_LIMIT_HEADERS,
      ...(types.length ? { content: Object.fromEntries(types.map((type) => [type, { schema: spec.schema ?? z.string().meta({ format: 'binary' }) }])) } : {}),
    }
  }
  for (const [status, description] of commonProblems(operation)) {
    // An operation's own wording of the same refusal comes first (e.g. its 404), the common one adds what it lacks.
    if (!problems.get(status)?.codes.has(codesNamed(description)[0]!)) addProblem(status, description)
  }
  for (const [status, entry] of [...problems].sort(([a], [b]) => a - b)) responses[status] = problemResponse(entry)
  return {
    operationId: operation.id,
    tags: [operation.tag],
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    requestParams: {
      ...(operation.params ? { path: operation.params } : {}),
      ...(operation.query ? { query: operation.query } : {}),
      ...(operation.headers ? { header: operation.headers } : {}),
    },
    ...(operation.body || operation.upload
      ? {
          requestBody: {
            required: true,
            content: {
              ...(operation.body ? { 'application/json': { schema: operation.body } } : {}),
              ...(operation.upload ? { 'multipart/form-data': { schema: operation.upload.schema } } : {}),
            },
          },
        }
      : {}),
    responses,
  } as ZodOpenApiOperationObject
}

function paths(operations: readonly ApiOperation[]): ZodOpenApiPathsObject {
  const result: ZodOpenApiPathsObject = {}
  for (const operation of operations) {
    const path = `${API_BASE}${operation.path}`
    result[path] = { ...result[path], [operation.method]: describe(operation) }
  }
  return result
}

let cached: ReturnType<typeof createDocument> | undefined

/** The document, built once (the operations do not change while the process runs); `origin` names the server. */
export function openApiDocument(origin?: string): ReturnType<typeof createDocument> {
  cached ??= createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: 'LeadAtlas API',
        version: '1.0.0',
        description:
          'Search local businesses, export them enriched (phone, website, verified emails, technologies, social links, French registry data) and be told by signed webhooks when an export ends. Every call runs the same command as the app: the same plan rules, credits (paid only for successes, never twice), do-not-contact list and limits.',
      },
      security: [{ apiKey: [] }],
      components: {
        securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'An API key from /settings/api: `Authorization: Bearer la_…`.' } },
        // Every code a problem may carry; each error response lists the ones it answers with.
        schemas: { Problem: ProblemSchema },
      },
      paths: paths(API_OPERATIONS),
      webhooks: webhookEventsDocument(),
    },
    { reused: 'inline' },
  )
  return origin ? { ...cached, servers: [{ url: origin }] } : cached
}
