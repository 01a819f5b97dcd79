// The OpenAPI 3.1 document of /api/v1, generated from the operations' own zod schemas (operations/index.ts): the
// schemas that validate requests are the ones described, so the document cannot drift from the behaviour.
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi'
import { z } from 'zod'
import { API_BASE, type ApiOperation } from './operation.ts'
import { API_OPERATIONS } from './operations/index.ts'
import { webhookEventsDocument } from './operations/webhooks.ts'
import { PROBLEM_CODES } from './problem.ts'

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
      .meta({ description: 'For `validation_failed` (422): each refused field.' }),
  })
  .meta({ id: 'Problem', description: 'An error (RFC 9457 problem details), served as application/problem+json.' })

const RATE_LIMIT_HEADERS = z.object({
  'RateLimit-Limit': z.string().meta({ description: 'Requests allowed per window for this key.', example: '600' }),
  'RateLimit-Remaining': z.string().meta({ description: 'Requests left in the current window.', example: '599' }),
  'RateLimit-Reset': z.string().meta({ description: 'Seconds until the window resets.', example: '60' }),
})

const problem = (description: string) => ({
  description,
  headers: RATE_LIMIT_HEADERS,
  content: { 'application/problem+json': { schema: ProblemSchema } },
})

/** Refusals every authenticated operation can give, beside its own. */
function commonProblems(operation: ApiOperation) {
  return {
    '401': { description: 'Missing, malformed, unknown or revoked API key (`invalid_api_key`).', content: { 'application/problem+json': { schema: ProblemSchema } } },
    ...(operation.params ? { '404': problem("No such resource for this key's owner (`not_found`): another user's id is not found either.") } : {}),
    ...(operation.query || operation.body || operation.headers ? { '422': problem('A field is missing or invalid (`validation_failed`), listed in `errors`.') } : {}),
    ...(operation.body ? { '400': problem('The body is not JSON (`bad_json`).'), '413': problem('The body is over 1 MB (`payload_too_large`).'), '415': problem('The body is not application/json (`unsupported_media_type`).') } : {}),
    '429': problem('Too many requests (`rate_limited`): wait for Retry-After seconds.'),
    '503': problem('A service we depend on is unavailable right now (`service_unavailable`): retry after Retry-After seconds.'),
  }
}

function describe(operation: ApiOperation): ZodOpenApiOperationObject {
  const responses: Record<string, unknown> = { ...commonProblems(operation) }
  for (const [status, spec] of Object.entries(operation.responses)) {
    const types = spec.contentTypes ?? (spec.schema ? ['application/json'] : [])
    const isProblem = Number(status) >= 400
    responses[status] = {
      description: spec.description,
      headers: RATE_LIMIT_HEADERS,
      ...(types.length
        ? { content: Object.fromEntries(types.map((type) => [isProblem ? 'application/problem+json' : type, { schema: isProblem ? ProblemSchema : (spec.schema ?? z.string().meta({ format: 'binary' })) }])) }
        : {}),
    }
  }
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
    ...(operation.body ? { requestBody: { required: true, content: { 'application/json': { schema: operation.body } } } } : {}),
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
      },
      paths: paths(API_OPERATIONS),
      webhooks: webhookEventsDocument(),
    },
    { reused: 'inline' },
  )
  return origin ? { ...cached, servers: [{ url: origin }] } : cached
}
