import { STATUS_CODES } from 'node:http'
import type { i18n } from 'i18next'
import { LRUCache } from 'lru-cache'
import { buildApiReference, slug, type AnyOpenApiDocument, type ApiReference, type ReferenceText } from '#app/domain/api-reference.ts'
import { env } from './env.server.ts'

/**
 * The /developers reference in the reader's language: summaries and descriptions come from the locale files
 * (`developers.operations.<operationId>.summary|description`, tags under `developers.tags.<tag slug>`; en.json holds the
 * document's own English, checked equal in tests/unit/api-reference-document.test.ts), and a text missing there stays
 * the document's.
 */

// The document never changes while the process runs: one reference per language and origin. Bounded, since
// without APP_URL the origin comes from the request's Host, which any client chooses.
const cache = new LRUCache<string, ApiReference>({ max: 16 })

function translator(i18n: i18n): ReferenceText {
  return (key, english) => {
    const path = key.operationId ? `developers.operations.${key.operationId}.${key.field}` : `developers.tags.${slug(key.tag ?? '')}.${key.field}`
    if (!i18n.exists(path, { fallbackLng: false })) return english
    return i18n.t(path)
  }
}

/** The examples' base URL is the public origin (`APP_URL`), else the origin the request reached. */
export function apiReferenceFor(document: AnyOpenApiDocument, i18n: i18n, request: Request): ApiReference {
  const origin = env.APP_URL ? new URL(env.APP_URL).origin : new URL(request.url).origin
  const key = `${i18n.language}\u0000${origin}`
  let reference = cache.get(key)
  if (!reference) {
    reference = buildApiReference(document, { origin, text: translator(i18n), statusText: (status) => STATUS_CODES[status] })
    cache.set(key, reference)
  }
  return reference
}
