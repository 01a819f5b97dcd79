// The i18n object a server render hands to react-i18next (app/.server/i18n.ts). useTranslation()
// copies its own properties into a new object for every component that calls it, so it must have
// none of its own (an i18next instance has ~40: 5–10 ms of CPU per page with a leads table), while
// translating exactly like the instance.
import { RouterContextProvider } from 'react-router'
import { describe, expect, test } from 'vitest'
import { safeI18n } from '#app/.server/i18n.ts'

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
