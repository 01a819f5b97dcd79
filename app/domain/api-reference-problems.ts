import type { oas31 } from 'zod-openapi'
import { exampleFromMedia } from './api-reference-examples.ts'
import { resolveRef, resolveSchema, type OpenApiDocument, type OpenApiSchema } from './api-reference-schema.ts'

/**
 * Error answers on /developers. The document lists the stable `code`s (the problem schema's enum) and names,
 * in each error response's description, the code(s) it answers with (`not_found`): the page's table of codes
 * and each error's example answer are built from that, so a code added to the API appears with its statuses.
 */

export const PROBLEM_CONTENT_TYPE = 'application/problem+json'

/** The anchor of a code's row on /developers: problem answers link to it in their `type`. */
export const errorAnchor = (code: string) => `error-${code}`

export interface ProblemCodeInfo {
  code: string
  /** The statuses documented with this code, ascending. */
  statuses: string[]
  /** The document's first description of a response with this code (English). */
  description?: string
}

type ResponseVisitor = (status: string, response: oas31.ResponseObject) => void

function eachResponse(document: OpenApiDocument, visit: ResponseVisitor) {
  for (const pathItem of Object.values(document.paths ?? {})) {
    for (const operation of [pathItem.get, pathItem.post, pathItem.put, pathItem.patch, pathItem.delete]) {
      for (const [status, value] of Object.entries(operation?.responses ?? {})) {
        const response = resolveRef<oas31.ResponseObject>(document, value as oas31.ResponseObject)
        if (response) visit(status, response)
      }
    }
  }
}

/**
 * The stable codes: the `Problem` component's `code` enum (all of them, in the API's order), then any other a
 * problem response lists (each response lists its own).
 */
function documentedCodes(document: OpenApiDocument): string[] {
  const problem = resolveSchema(document, document.components?.schemas?.Problem as OpenApiSchema | undefined)
  const codes = new Set<string>((resolveSchema(document, problem?.properties?.code)?.enum ?? []).map(String))
  eachResponse(document, (_status, response) => {
    const schema = resolveSchema(document, response.content?.[PROBLEM_CONTENT_TYPE]?.schema as OpenApiSchema | undefined)
    const code = resolveSchema(document, schema?.properties?.code)
    for (const value of code?.enum ?? []) codes.add(String(value))
  })
  return [...codes]
}

/** The codes a description names in backticks, among the known ones. */
function codesIn(description: string, known: readonly string[]): string[] {
  return [...description.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]!).filter((code) => known.includes(code))
}

export function problemCodes(document: OpenApiDocument): ProblemCodeInfo[] {
  const codes = documentedCodes(document)
  const found = new Map(codes.map((code) => [code, { code, statuses: new Set<string>(), description: undefined as string | undefined }]))
  eachResponse(document, (status, response) => {
    for (const code of codesIn(response.description, codes)) {
      const info = found.get(code)!
      info.statuses.add(status)
      info.description ??= response.description
    }
  })
  return [...found.values()].map(({ code, statuses, description }) => ({ code, statuses: [...statuses].sort(), description }))
}

export interface ProblemExampleInput {
  status: string
  description: string
  media: oas31.MediaTypeObject
  /** Where the page lives, for `type` (`<origin>/developers#error-<code>`), as the API writes it. */
  origin: string
  statusText: (status: number) => string | undefined
}

/** An error's example answer: the schema's shape, with this response's status, code, title and wording. */
export function problemExample(document: OpenApiDocument, { status, description, media, origin, statusText }: ProblemExampleInput): unknown {
  const sample = exampleFromMedia(document, media, 'response')
  if (!sample || typeof sample !== 'object' || Array.isArray(sample)) return sample
  const code = codesIn(description, documentedCodes(document))[0]
  const numeric = Number(status)
  return {
    ...sample,
    ...(code ? { type: `${origin}/developers#${errorAnchor(code)}`, code } : {}),
    ...(Number.isInteger(numeric) ? { status: numeric, title: statusText(numeric) ?? (sample as { title?: unknown }).title } : {}),
    detail: description.replace(/\s*\(`[a-z_]+`\)/g, '').replaceAll('`', ''),
  }
}
