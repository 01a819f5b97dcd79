// One definition per /api/v1 operation: its route, its schemas (which validate the request AND describe it in the
// OpenAPI document) and its handler. The dispatcher (dispatch.ts) and the document (openapi.ts) read the same list
// (operations/index.ts), so an operation cannot be served without being documented, nor documented without a route.
import type { TFunction } from 'i18next'
import type { RouterContextProvider } from 'react-router'
import type { z } from 'zod'
import type { SessionUser } from '#app/.server/auth.ts'
import type { LimitName } from '#app/.server/rate-limiter.ts'
import type { Permission } from '#app/domain/workspace-roles.ts'

type HttpMethod = 'get' | 'post' | 'patch' | 'delete'

export interface ApiContext {
  request: Request
  context: Readonly<RouterContextProvider>
  /** The key's owner, with a user's rights only (withUser(user.claims, …) applies row-level security). */
  user: SessionUser
  keyId: string
  /** Words a problem's `detail` in the request's language (Accept-Language); values in answers follow `?lang` only (lang.ts). */
  t: TFunction
}

/** What a handler answers: JSON (`body`), nothing (204), or a ready response (a file). */
export type ApiAnswer = { status: number; body?: unknown; headers?: Record<string, string> } | { response: Response }

interface ApiResponseSpec {
  description: string
  schema?: z.ZodType
  /** application/json unless said (a file's types). */
  contentTypes?: string[]
  /** What the answer's `Location` header names (`/api/v1/exports/{id}`), when it has one: see locationOf(). */
  location?: string
}

type Input<T> = T extends z.ZodType ? z.output<T> : undefined

/** A file sent as multipart/form-data, as the handler receives it. */
export interface UploadedFile {
  name: string
  bytes: Uint8Array
}

/**
 * An operation that also takes its input as multipart/form-data (a file and text fields): `schema` validates the
 * fields as text (the file field holds the file's name), `file` names the file field. Either this or `body` per request.
 */
interface UploadSpec {
  schema: z.ZodType
  file: string
}

export interface OperationSpec<P extends z.ZodType | undefined, Q extends z.ZodType | undefined, H extends z.ZodType | undefined, B extends z.ZodType | undefined> {
  /** operationId: also the key of the operation's French texts (developers.operations.<id>). */
  id: string
  method: HttpMethod
  /** Under /api/v1, with {param} segments: '/exports/{id}'. */
  path: string
  tag: string
  summary: string
  description?: string
  params?: P
  query?: Q
  headers?: H
  body?: B
  upload?: UploadSpec
  responses: Record<number, ApiResponseSpec>
  /**
   * A limit of the command itself (counted per user, shared with the form doing the same thing). A request the
   * command refuses (a 4xx problem) gives its point back; its state is in the RateLimit-* headers when it is the tightest.
   */
  limit?: LimitName
  /** The permission the member's role must give (workspace-roles.ts); refused with 403 `forbidden_role` before anything runs. */
  requires?: Permission
  /** Whether this request replays one already served (its Idempotency-Key): then `limit` is not counted. */
  isReplay?: (input: OperationInput<P, Q, H, B>) => Promise<boolean>
  handler: (input: OperationInput<P, Q, H, B>) => Promise<ApiAnswer>
}

/** `body` for a JSON request; `upload` (its fields parsed by `upload.schema`, and the file) for a multipart one (then `body` is undefined). */
type OperationInput<P, Q, H, B> = { ctx: ApiContext; params: Input<P>; query: Input<Q>; headers: Input<H>; body: Input<B>; upload?: { fields: unknown; file: UploadedFile } }

// The list holds operations of every input type; each handler is type-checked against its own schemas where it is defined.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ApiOperation = OperationSpec<any, any, any, any>

export function defineOperation<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  H extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(spec: OperationSpec<P, Q, H, B>): ApiOperation {
  return spec
}

export const API_BASE = '/api/v1'

/** The path of an object the API answers: the `Location` of the answer that made or found it. */
export function locationOf(collection: 'exports' | 'saved-searches' | 'webhook-endpoints', id: string): Record<'Location', string> {
  return { Location: `${API_BASE}/${collection}/${id}` }
}

/**
 * Requests the public API answers by itself (dispatch.ts): the page middlewares (form checks, Origin check,
 * cookie session) stand aside, since the API reads no cookie and gives its own problem+json refusals.
 */
export function isPublicApiRequest(request: Request): boolean {
  const { pathname } = new URL(request.url)
  return pathname === API_BASE || pathname.startsWith(`${API_BASE}/`)
}
