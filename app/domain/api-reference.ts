import type { oas31, oas32 } from 'zod-openapi'
import { ApiExportSchema } from './api-export.ts'
import { buildCurl, buildUrl, type CurlHeader, type CurlRequest } from './api-reference-curl.ts'
import { exampleFromMedia, exampleFromSchema } from './api-reference-examples.ts'
import { PROBLEM_CONTENT_TYPE, problemCodes, problemExample, type ProblemCodeInfo } from './api-reference-problems.ts'
import {
  resolveRef,
  schemaConstraints,
  schemaEnum,
  schemaFields,
  schemaType,
  type OpenApiDocument,
  type OpenApiSchema,
  type SchemaField,
} from './api-reference-schema.ts'

/**
 * The /developers reference as sections, built from the OpenAPI document alone: nothing about an
 * operation is written anywhere else, so an operation added to the API appears here as it is described.
 */

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const
const IDEMPOTENCY_HEADER = 'idempotency-key'
/** Shown for an `Idempotency-Key` whose schema gives no example: any unique string does. */
const IDEMPOTENCY_EXAMPLE = 'crm-sync-2026-01-15-0001'
export const API_KEY_VARIABLE = 'LEADATLAS_API_KEY'

/** A parameter is described as a body field is, plus where it goes. */
interface ReferenceParameter extends SchemaField {
  in: 'path' | 'query' | 'header'
}

export interface ReferenceResponse {
  status: string
  description: string
  contentType?: string
  /** Every content type the document lists (a file: text/csv, xlsx…). */
  contentTypes: string[]
  /** Pretty-printed JSON; absent for an answer without a body (204) or a non-JSON one. */
  example?: string
}

export interface ReferenceOperation {
  id: string
  anchor: string
  method: string
  /** The full path, server prefix included: `/api/v1/exports/{id}`. */
  path: string
  summary: string
  description?: string
  deprecated: boolean
  requiresAuth: boolean
  idempotent: boolean
  parameters: ReferenceParameter[]
  body?: { contentType: string; required: boolean; fields: SchemaField[]; type: string }
  /** The example request, as data (the integration test sends it to the API) and as a curl command. */
  request: CurlRequest
  curl: string
  responses: ReferenceResponse[]
}

export interface ReferenceGroup {
  tag: string
  anchor: string
  description?: string
  operations: ReferenceOperation[]
}

export interface ApiReference {
  title: string
  version: string
  baseUrl: string
  groups: ReferenceGroup[]
  /** The stable error codes, with the statuses the document gives each. */
  errorCodes: ProblemCodeInfo[]
  /** A webhook delivery's body (`export.completed`), its export built from the document's export schema. */
  webhookPayload: string
}

/** Localized text of an operation or a tag, given the document's English text (returned when no translation). */
export type ReferenceText = (key: { operationId?: string; tag?: string; field: 'summary' | 'description' }, english: string | undefined) => string | undefined

export interface ReferenceOptions {
  /** The app's public origin, e.g. `https://leadatlas.app`: the base of the curl examples. */
  origin: string
  text?: ReferenceText
  /** HTTP reason phrases (`title` of the error examples), e.g. node:http's STATUS_CODES. */
  statusText?: (status: number) => string | undefined
}

type BuildOptions = ReferenceOptions & { prefix: string; serverUrl: string }

export const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')

/** The leading segments every path shares (`/api/v1` when paths are written in full), without `{params}`. */
function commonPathPrefix(paths: string[]): string {
  const split = paths.map((path) => path.split('/').filter(Boolean))
  const shared: string[] = []
  for (const [index, segment] of (split[0] ?? []).entries()) {
    if (segment.startsWith('{') || !split.every((parts) => parts[index] === segment && parts.length > index + 1)) break
    shared.push(segment)
  }
  return shared.length ? `/${shared.join('/')}` : ''
}

/**
 * `prefix`: the document's server path (`/api/v1` when its server names it), put before each path; `baseUrl`: the
 * absolute URL the API's paths hang from (server URL and the paths' shared prefix), shown as the base URL.
 */
function serverBase(document: OpenApiDocument, origin: string): { prefix: string; serverUrl: string; baseUrl: string } {
  const url = new URL(document.servers?.[0]?.url ?? '/', origin)
  const prefix = url.pathname.replace(/\/+$/, '')
  const serverUrl = `${url.origin}${prefix}`
  return { prefix, serverUrl, baseUrl: `${serverUrl}${commonPathPrefix(Object.keys(document.paths ?? {}))}` }
}

const isJson = (contentType: string) => /^application\/([\w.+-]+\+)?json\b/.test(contentType)
const pretty = (value: unknown) => (value === undefined ? undefined : JSON.stringify(value, null, 2))

function jsonMedia(content: oas31.ContentObject | undefined): [string, oas31.MediaTypeObject] | undefined {
  return Object.entries(content ?? {}).find(([type]) => isJson(type))
}

function readParameters(document: OpenApiDocument, pathItem: oas31.PathItemObject, operation: oas31.OperationObject): oas31.ParameterObject[] {
  const all = [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])]
    .map((parameter) => resolveRef<oas31.ParameterObject>(document, parameter))
    .filter((parameter) => parameter !== undefined)
  // An operation's parameter overrides the path item's of the same name and place.
  return [...new Map(all.map((parameter) => [`${parameter.in}:${parameter.name}`, parameter])).values()].filter((parameter) => ['path', 'query', 'header'].includes(parameter.in))
}

function toParameter(document: OpenApiDocument, parameter: oas31.ParameterObject): ReferenceParameter {
  const schema = parameter.schema as OpenApiSchema | undefined
  const resolved = resolveRef<OpenApiSchema>(document, schema)
  return {
    name: parameter.name,
    in: parameter.in as ReferenceParameter['in'],
    type: schemaType(document, schema),
    required: parameter.required === true || parameter.in === 'path',
    description: parameter.description ?? resolved?.description,
    enum: schemaEnum(document, schema),
    default: resolved?.default === undefined ? undefined : JSON.stringify(resolved.default),
    constraints: schemaConstraints(document, schema),
  }
}

/** A parameter's example as text: its own example, else its schema's (the sampler's), else `undefined`. */
function parameterExample(document: OpenApiDocument, parameter: oas31.ParameterObject): string | undefined {
  const value = parameter.example ?? exampleFromSchema(document, parameter.schema as OpenApiSchema | undefined, 'request')
  return value === undefined || value === null ? undefined : String(value)
}

/** Whether the document gives the query parameter a value of its own (example or default) worth showing. */
function hasChosenExample(document: OpenApiDocument, parameter: oas31.ParameterObject): boolean {
  const schema = resolveRef<OpenApiSchema>(document, parameter.schema as OpenApiSchema | undefined)
  return parameter.example !== undefined || schema?.example !== undefined || (Array.isArray(schema?.examples) && schema.examples.length > 0)
}

/** A success whose body is not JSON (a CSV or Excel file): curl should save it rather than print it. */
function answersFile(operation: oas31.OperationObject): boolean {
  return Object.entries(operation.responses ?? {}).some(([status, response]) => {
    const content = Object.keys((response as oas31.ResponseObject).content ?? {})
    return status.startsWith('2') && content.length > 0 && !content.some(isJson)
  })
}

/** Authentication applies unless the operation (or the document) explicitly requires nothing (`security: []`). */
function requiresAuth(document: OpenApiDocument, operation: oas31.OperationObject): boolean {
  const security = operation.security ?? document.security
  return !(Array.isArray(security) && security.length === 0)
}

interface CurlInput {
  method: string
  baseUrl: string
  path: string
  parameters: oas31.ParameterObject[]
  body: unknown
  auth: boolean
}

/** The operation's example request: path parameters and query from their examples, the key, Idempotency-Key, the body. */
function exampleRequest(document: OpenApiDocument, { method, baseUrl, path, parameters, body, auth }: CurlInput): CurlRequest {
  const pathValues = Object.fromEntries(
    parameters.filter((parameter) => parameter.in === 'path').map((parameter) => [parameter.name, parameterExample(document, parameter) ?? parameter.name]),
  )
  const query = parameters
    .filter((parameter) => parameter.in === 'query' && (parameter.required || hasChosenExample(document, parameter)))
    .flatMap((parameter): Array<[string, string]> => {
      const value = parameterExample(document, parameter)
      return value === undefined ? [] : [[parameter.name, value]]
    })
  const headers: CurlHeader[] = auth ? [{ name: 'Authorization', value: `Bearer $${API_KEY_VARIABLE}`, expand: true }] : []
  for (const parameter of parameters.filter((item) => item.in === 'header')) {
    const idempotency = parameter.name.toLowerCase() === IDEMPOTENCY_HEADER
    if (!idempotency && !parameter.required) continue
    const value = parameter.example === undefined && idempotency ? IDEMPOTENCY_EXAMPLE : parameterExample(document, parameter)
    if (value !== undefined) headers.push({ name: parameter.name, value })
  }
  return { method, url: buildUrl(baseUrl, path, pathValues, query), headers, body }
}

function toResponses(document: OpenApiDocument, responses: oas31.ResponsesObject | undefined, options: BuildOptions): ReferenceResponse[] {
  return Object.entries(responses ?? {}).flatMap(([status, value]) => {
    const response = resolveRef<oas31.ResponseObject>(document, value as oas31.ResponseObject)
    if (!response) return []
    const [contentType, media] = jsonMedia(response.content) ?? [Object.keys(response.content ?? {})[0], undefined]
    const { description } = response
    const example =
      media && contentType === PROBLEM_CONTENT_TYPE
        ? problemExample(document, { status, description, media, origin: options.origin, statusText: options.statusText ?? (() => undefined) })
        : media
          ? exampleFromMedia(document, media, 'response')
          : undefined
    return [{ status, description, contentType, contentTypes: Object.keys(response.content ?? {}), example: pretty(example) }]
  })
}

interface OperationInput {
  method: (typeof METHODS)[number]
  path: string
  pathItem: oas31.PathItemObject
  operation: oas31.OperationObject
}

function toOperation(document: OpenApiDocument, input: OperationInput, options: BuildOptions): ReferenceOperation {
  const { method, path, pathItem, operation } = input
  const id = operation.operationId ?? slug(`${method} ${path}`)
  const text: ReferenceText = options.text ?? ((_key, english) => english)
  const parameters = readParameters(document, pathItem, operation)
  const requestBody = resolveRef<oas31.RequestBodyObject>(document, operation.requestBody)
  const [contentType, media] = jsonMedia(requestBody?.content) ?? []
  const bodyExample = media ? exampleFromMedia(document, media, 'request') : undefined
  const auth = requiresAuth(document, operation)
  const request = { ...exampleRequest(document, { method, baseUrl: options.serverUrl, path, parameters, body: bodyExample, auth }), saveFile: answersFile(operation) }
  return {
    id,
    anchor: `op-${slug(id)}`,
    method: method.toUpperCase(),
    path: `${options.prefix}${path}`,
    summary: text({ operationId: id, field: 'summary' }, operation.summary) ?? `${method.toUpperCase()} ${path}`,
    description: text({ operationId: id, field: 'description' }, operation.description),
    deprecated: operation.deprecated === true,
    requiresAuth: auth,
    idempotent: parameters.some((parameter) => parameter.in === 'header' && parameter.name.toLowerCase() === IDEMPOTENCY_HEADER),
    parameters: parameters.map((parameter) => toParameter(document, parameter)),
    body:
      contentType && media
        ? { contentType, required: requestBody?.required === true, fields: schemaFields(document, media.schema as OpenApiSchema), type: schemaType(document, media.schema as OpenApiSchema) }
        : undefined,
    request,
    curl: buildCurl(request),
    responses: toResponses(document, operation.responses, options),
  }
}

/** Groups by tag, in the document's `tags` order, then in order of first appearance; untagged operations last. */
function groupByTag(document: OpenApiDocument, operations: Array<{ tag: string; operation: ReferenceOperation }>, text: ReferenceText): ReferenceGroup[] {
  const declared = (document.tags ?? []).map((tag) => tag.name)
  const order = [...new Set([...declared, ...operations.map((item) => item.tag)])]
  return order.flatMap((tag) => {
    const members = operations.filter((item) => item.tag === tag).map((item) => item.operation)
    if (!members.length) return []
    const english = document.tags?.find((item) => item.name === tag)?.description
    return [{ tag: text({ tag, field: 'summary' }, tag) ?? tag, anchor: `tag-${slug(tag)}`, description: text({ tag, field: 'description' }, english), operations: members }]
  })
}

/** Webhooks carry the export object the API answers with: its example comes from the same schema. */
function webhookPayload(document: OpenApiDocument): string {
  const exportId = ApiExportSchema.meta()?.id ?? 'Export'
  const schema = document.components?.schemas?.[exportId]
  const example = schema ? exampleFromSchema(document, { $ref: `#/components/schemas/${exportId}` }, 'response') : {}
  return JSON.stringify({ type: 'export.completed', timestamp: '2026-01-15T09:30:00Z', data: { export: example } }, null, 2)
}

/**
 * zod-openapi's `createDocument` is typed for OpenAPI 3.2 too (a `querystring` parameter place); the API's
 * document is 3.1, and a place this reader does not know is left out (`readParameters`).
 */
export type AnyOpenApiDocument = OpenApiDocument | oas32.OpenAPIObject

export function buildApiReference(source: AnyOpenApiDocument, options: ReferenceOptions): ApiReference {
  const document = source as OpenApiDocument
  const { prefix, serverUrl, baseUrl } = serverBase(document, options.origin)
  const text: ReferenceText = options.text ?? ((_key, english) => english)
  const operations = Object.entries(document.paths ?? {}).flatMap(([path, pathItem]) =>
    METHODS.flatMap((method) => {
      const operation = pathItem[method]
      if (!operation) return []
      return [{ tag: operation.tags?.[0] ?? 'API', operation: toOperation(document, { method, path, pathItem, operation }, { ...options, prefix, serverUrl }) }]
    }),
  )
  return {
    title: document.info.title,
    version: document.info.version,
    baseUrl,
    groups: groupByTag(document, operations, text),
    errorCodes: problemCodes(document),
    webhookPayload: webhookPayload(document),
  }
}
