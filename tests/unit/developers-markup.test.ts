// /developers' reference markup (app/.server/api-reference-html.tsx): rendered once per language and origin, from the
// served document, in the reader's language.
import i18next from 'i18next'
import { describe, expect, test } from 'vitest'
import { referenceHtmlFor } from '#app/.server/api-reference-html.tsx'
import { openApiDocument } from '#app/.server/api-v1/openapi.ts'
import { i18nOptions, withFrenchSpacing } from '#app/i18n.ts'
import en from '#app/locales/en.json'
import fr from '#app/locales/fr.json'

function instance(language: 'en' | 'fr') {
  const i18n = i18next.createInstance()
  void i18n.init({ ...i18nOptions, resources: { en: { translation: en }, fr: { translation: withFrenchSpacing(fr) } }, lng: language, initAsync: false })
  return i18n
}

const document = openApiDocument()
const operationIds = Object.values(document.paths ?? {}).flatMap((item) =>
  (['get', 'post', 'put', 'patch', 'delete'] as const).flatMap((method) => (item?.[method]?.operationId ? [item[method].operationId] : [])),
)

describe('the reference markup of /developers', () => {
  test('holds every operation, the table of contents and the guide, with the request origin in the examples', () => {
    const html = referenceHtmlFor(document, instance('en'), new Request('https://docs.example/developers'))
    expect(operationIds.length).toBeGreaterThan(5)
    for (const id of operationIds) expect(html).toContain(`data-operation-id="${id}"`)
    expect(html).toContain('data-testid="toc-desktop"')
    expect(html).toContain('<h1 class="text-3xl font-semibold tracking-tight text-slate-900">API reference</h1>')
    expect(html).toContain('https://docs.example/api/v1')
    expect(html).not.toContain('<script')
  })

  test('is rendered once per language and origin, and in the reader\'s language', () => {
    const request = () => new Request('https://docs.example/developers')
    const english = referenceHtmlFor(document, instance('en'), request())
    expect(referenceHtmlFor(document, instance('en'), request())).toBe(english)
    const french = referenceHtmlFor(document, instance('fr'), request())
    expect(french).toContain('Référence de l&#x27;API')
    expect(french).not.toBe(english)
    const elsewhere = referenceHtmlFor(document, instance('en'), new Request('https://other.example/developers'))
    expect(elsewhere).toContain('https://other.example/api/v1')
    expect(elsewhere).not.toContain('https://docs.example')
  })
})
