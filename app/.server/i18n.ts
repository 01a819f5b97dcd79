import i18next, { type i18n } from 'i18next'
import { createCookie, type RouterContextProvider } from 'react-router'
import { createI18nextMiddleware } from 'remix-i18next'
import { initReactI18next } from 'react-i18next'
import en from '#app/locales/en.json'
import fr from '#app/locales/fr.json'
import { fallbackLanguage, i18nOptions, supportedLanguages, withFrenchSpacing } from '#app/i18n.ts'

const resources = { en: { translation: en }, fr: { translation: withFrenchSpacing(fr) } }

export const localeCookie = createCookie('lng', {
  path: '/',
  sameSite: 'lax',
  httpOnly: true,
  maxAge: 60 * 60 * 24 * 365,
})

// Detection order (ARCHITECTURE §7): the switcher's cookie, then Accept-Language, then English.
export const [i18nextMiddleware, getLocale, getInstance] = createI18nextMiddleware({
  detection: {
    supportedLanguages: [...supportedLanguages],
    fallbackLanguage,
    cookie: localeCookie,
    order: ['cookie', 'header'],
  },
  i18next: { ...i18nOptions, resources },
  plugins: [initReactI18next],
})

/**
 * The instances a server render translates with, one per language, made once: the middleware's instance is new for
 * each request (loaders and actions use it), and a new i18next instance starts with empty caches, its plural rules'
 * among them (an Intl.PluralRules built anew per request made each count text ≈ 100 µs: 2 ms of a leads page). Nothing
 * changes a render's instance (the language switcher only sets the cookie), so one per language serves every request.
 */
function renderInstance(language: string): i18n {
  const instance = i18next.createInstance()
  void instance.use(initReactI18next).init({ ...i18nOptions, lng: language, resources, initAsync: false })
  return instance
}
const renderInstances = new Map<string, i18n>(supportedLanguages.map((language) => [language, renderInstance(language)]))
// For a request that failed before i18nextMiddleware ran: the error page still renders, in English.
const fallbackInstance = renderInstances.get(fallbackLanguage)!

/** The i18n object of a server render: the request's language (the middleware's choice), else English. */
export function safeI18n(context: Readonly<RouterContextProvider>): i18n {
  try {
    return cheapToWrap(renderInstances.get(getLocale(context)) ?? getInstance(context))
  } catch {
    return cheapToWrap(fallbackInstance)
  }
}

/**
 * react-i18next's useTranslation() copies every own property of the instance it is given into a
 * fresh wrapper object for each component that calls it, and in a server render every component
 * is fresh: an i18next instance has ~40 own properties (its methods, bound in its constructor),
 * ~40 µs a copy, 5–10 ms of a page with a leads table (its cells translate). An object that
 * inherits from the instance has no own property, so the copy is nearly free; every method it
 * exposes is still the instance's own bound one, and every field reads through to it.
 */
function cheapToWrap(instance: i18n): i18n {
  return Object.create(memoizingLayer(instance)) as i18n
}

/** The instance with getFixedT memoized (below), one per instance: the wrapper itself keeps no own property. */
const layers = new WeakMap<i18n, i18n>()
function memoizingLayer(instance: i18n): i18n {
  let layer = layers.get(instance)
  if (!layer) {
    layer = Object.create(instance) as i18n
    layer.getFixedT = ((...args: Parameters<i18n['getFixedT']>) => memoized(instance, args)) as i18n['getFixedT']
    layers.set(instance, layer)
  }
  return layer
}

/**
 * Texts of plain keys (`t('exports.title')`, no options), per language, namespace and prefix: the server's messages
 * never change after start, and a page translates the same keys in every row (a status badge, a column label), each
 * call ≈ 4 µs in i18next (it copies its ~40 options into a new object per call). Calls with options (counts,
 * interpolated values) are not kept: their values are unbounded. The cap bounds keys built from data.
 */
const plainTexts = new Map<string, string>()
const MAX_PLAIN_TEXTS = 20_000

function memoized(instance: i18n, args: Parameters<i18n['getFixedT']>) {
  const fixedT = instance.getFixedT(...args)
  // i18next's fixed t, seen untyped: it takes any arguments and carries lng, lngs, ns and keyPrefix as fields.
  const fixed = fixedT as unknown as ((...all: unknown[]) => unknown) & Record<'lng' | 'lngs' | 'ns' | 'keyPrefix', unknown>
  const [lng, ns, keyPrefix] = args
  const plain = (key: string): unknown => {
    const id = `${String(lng ?? instance.language)}\u0000${String(ns ?? '')}\u0000${String(keyPrefix ?? '')}\u0000${key}`
    let text = plainTexts.get(id)
    if (text === undefined) {
      const value: unknown = fixed(key)
      if (typeof value !== 'string') return value
      if (plainTexts.size < MAX_PLAIN_TEXTS) plainTexts.set(id, value)
      text = value
    }
    return text
  }
  const t = (key: unknown, ...rest: unknown[]) => {
    if (typeof key !== 'string') return fixed(key, ...rest)
    if (rest.length === 0) return plain(key)
    const template = rest.length === 1 ? plain(key) : undefined
    const text = typeof template === 'string' ? interpolated(template, rest[0]) : undefined
    return text ?? fixed(key, ...rest)
  }
  // react-i18next reads these from the function it is given (TFunction's own fields).
  return Object.assign(t, { lng: fixed.lng, lngs: fixed.lngs, ns: fixed.ns, keyPrefix: fixed.keyPrefix }) as unknown as typeof fixedT
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_$][\w$]*)\s*\}\}/g

/**
 * A call whose options are only the template's own variables (`t('exports.detail.neverExportLabel', { name })`), filled
 * in here: i18next's own t takes ≈ 20 µs for it (it merges its options and runs its interpolator and nesting), and a
 * leads page makes such a call per row. The template comes from the plain-text cache (with `{{name}}` kept, as
 * i18next leaves a variable it is not given). Undefined, for i18next to answer, whenever i18next could do anything
 * else: an option that is not one of the template's variables (count, context, defaultValue...), a formatted or
 * unescaped variable (`{{value, number}}`, `{{- name}}`), a value that is not a string or a number, or one holding
 * `{{` or `$t(` (i18next would read those again). Values go in as they are: escapeValue is off (React escapes).
 */
function interpolated(template: string, options: unknown): string | undefined {
  if (!options || typeof options !== 'object' || Array.isArray(options)) return undefined
  const values = options as Record<string, unknown>
  const names = Object.keys(values)
  if (names.length === 0) return undefined
  for (const name of names) {
    // Options that choose the key (plural forms, contexts) are i18next's, even when the template shows them too.
    if (name === 'count' || name === 'context' || name === 'ordinal') return undefined
    const value = values[name]
    if (typeof value === 'number') continue
    if (typeof value !== 'string' || value.includes('{{') || value.includes('$t(')) return undefined
  }
  const used = new Set<string>()
  const text = template.replace(PLACEHOLDER, (match, name: string) => {
    if (!Object.hasOwn(values, name)) return match
    used.add(name)
    return String(values[name])
  })
  // Every option must be a variable the template used, and no other placeholder may be left for i18next to read.
  if (used.size !== names.length || text.includes('{{')) return undefined
  return text
}
