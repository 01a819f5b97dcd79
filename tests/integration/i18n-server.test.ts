// The server render's translations (app/.server/i18n.ts, issue 28 page budgets): a plain key's text is looked up in
// i18next once per language, namespace and prefix, then reused by every row and request; everything else is
// i18next's own answer.
import { RouterContextProvider } from 'react-router'
import { expect, test, vi } from 'vitest'
import en from '#app/locales/en.json'
import { safeI18n } from '#app/.server/i18n.ts'

test('plain keys are translated once, with the same texts as i18next, per language and prefix', () => {
  // No middleware ran on this context: the English fallback instance (it holds both languages).
  const i18n = safeI18n(new RouterContextProvider())
  const instance = Object.getPrototypeOf(i18n) as typeof i18n
  // i18next's translator (not in its public types) does every lookup.
  const translator = (instance as unknown as { translator: { translate: (...args: unknown[]) => unknown } }).translator
  const translate = vi.spyOn(translator, 'translate')
  const key = 'exports.subtitle'
  const english = i18n.getFixedT('en', 'translation')
  const french = i18n.getFixedT('fr', 'translation')

  expect(english(key)).toBe(instance.getFixedT('en', 'translation')(key))
  const lookups = translate.mock.calls.length
  expect(safeI18n(new RouterContextProvider()).getFixedT('en', 'translation')(key)).toBe(english(key))
  expect(translate.mock.calls.length).toBe(lookups) // reused, across wrappers (requests)

  expect(french(key)).toBe(instance.getFixedT('fr', 'translation')(key))
  expect(french(key)).not.toBe(english(key))
  expect(i18n.getFixedT('en', 'translation', 'exports')('subtitle')).toBe(english(key))
  expect(english('no.such.key')).toBe('no.such.key')

  // With options (a count, a value) the answer is i18next's every time, never a kept one.
  const before = translate.mock.calls.length
  expect(english(key, { defaultValue: 'x' })).toBe(instance.getFixedT('en', 'translation')(key, { defaultValue: 'x' }))
  expect(translate.mock.calls.length).toBeGreaterThan(before)
  expect((en as { exports: { subtitle: string } }).exports.subtitle).toBe(english(key))
})
