import type { i18n } from 'i18next'
import { LRUCache } from 'lru-cache'
import { renderToStaticMarkup } from 'react-dom/server'
import { I18nextProvider } from 'react-i18next'
import type { AnyOpenApiDocument } from '#app/domain/api-reference.ts'
import { ReferenceBody } from '#app/components/developers/reference-body.tsx'
import { apiReferenceFor } from './api-reference.ts'

/**
 * The reference's markup (table of contents, guide, every operation), rendered once per language and origin: it
 * depends on nothing else (the document is built into the server), and rendering its ~6 000 elements with React
 * cost ≈ 30 ms of CPU a request. The page is served without scripts (no hydration), so the markup goes in as it is.
 * Bounded as the reference cache is: without APP_URL the origin comes from the request's Host.
 */
const cache = new LRUCache<string, string>({ max: 16 })

export function referenceHtmlFor(document: AnyOpenApiDocument, i18n: i18n, request: Request): string {
  const reference = apiReferenceFor(document, i18n, request)
  const key = `${i18n.language}\u0000${reference.baseUrl}`
  let html = cache.get(key)
  if (html === undefined) {
    html = renderToStaticMarkup(
      <I18nextProvider i18n={i18n}>
        <ReferenceBody reference={reference} />
      </I18nextProvider>,
    )
    cache.set(key, html)
  }
  return html
}
