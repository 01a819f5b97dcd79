// The i18n object a server render hands to react-i18next (app/.server/i18n.ts). useTranslation()
// copies its own properties into a new object for every component that calls it, so it must have
// none of its own (an i18next instance has ~40: 5–10 ms of CPU per page with a leads table), while
// translating exactly like the instance.
import i18next from 'i18next'
import { RouterContextProvider } from 'react-router'
import { describe, expect, test } from 'vitest'
import { safeI18n } from '#app/.server/i18n.ts'
import { i18nOptions, withFrenchSpacing } from '#app/i18n.ts'
import en from '#app/locales/en.json'
import fr from '#app/locales/fr.json'

describe('the render-time i18n object', () => {
  test('has no own property for useTranslation() to copy', () => {
    const i18n = safeI18n(new RouterContextProvider())
    expect(Object.getOwnPropertyNames(i18n)).toEqual([])
  })

  test('translates, and exposes the language, through the instance', () => {
    const i18n = safeI18n(new RouterContextProvider())
    expect(i18n.language).toBe('en')
    expect(i18n.t('search.noReviews')).not.toBe('search.noReviews')
    const { t } = i18n
    expect(t('search.noReviews')).toBe(i18n.t('search.noReviews'))
    expect(i18n.getFixedT('fr')('search.noReviews')).not.toBe(i18n.t('search.noReviews'))
  })
})

/** Every message of a language, as `key → text` (nested keys joined with dots). */
function messagesOf(messages: Record<string, unknown>, prefix = ''): Array<[string, string]> {
  return Object.entries(messages).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value] as [string, string]] : messagesOf(value as Record<string, unknown>, `${prefix}${key}.`),
  )
}

describe('texts with variables (filled in without i18next when the options are only the variables)', () => {
  const reference = i18next.createInstance()
  void reference.init({ ...i18nOptions, resources: { en: { translation: en }, fr: { translation: withFrenchSpacing(fr) } }, lng: 'en', initAsync: false })
  const render = safeI18n(new RouterContextProvider())

  test.each(['en', 'fr'] as const)('read exactly as i18next reads them, in %s', (language) => {
    const t = render.getFixedT(language)
    const expected = reference.getFixedT(language)
    let compared = 0
    for (const [key, text] of messagesOf(language === 'en' ? en : fr)) {
      const names = [...text.matchAll(/\{\{\s*([\w$]+)\s*\}\}/g)].map((match) => match[1]!)
      if (names.length === 0) continue
      const plural = key.replace(/_(zero|one|two|few|many|other)$/, '')
      // Each variable a value, then a number; then one variable left out, and one option too many.
      const strings = Object.fromEntries(names.map((name, i) => [name, `v${i} <b> l'été`]))
      const numbers = Object.fromEntries(names.map((name, i) => [name, 1000 + i]))
      const missing = Object.fromEntries(names.slice(1).map((name) => [name, 'x']))
      for (const options of [strings, numbers, missing, { ...strings, extra: 'y' }, { ...strings, defaultValue: 'z' }]) {
        expect(t(plural, options), `${key} ${JSON.stringify(options)}`).toBe(expected(plural, options))
        compared++
      }
    }
    expect(compared).toBeGreaterThan(100)
  })

  test('a value holding a placeholder or a nesting is left to i18next', () => {
    const t = render.getFixedT('en')
    const expected = reference.getFixedT('en')
    for (const name of ['{{name}}', '$t(search.noReviews)', 'a {{b}} c'])
      expect(t('exports.detail.neverExportLabel', { name })).toBe(expected('exports.detail.neverExportLabel', { name }))
  })
})
