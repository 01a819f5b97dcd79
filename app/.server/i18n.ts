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

// For a request that failed before i18nextMiddleware ran: the error page still renders, in English.
const fallbackInstance = i18next.createInstance()
void fallbackInstance.use(initReactI18next).init({
  ...i18nOptions,
  lng: fallbackLanguage,
  resources,
  initAsync: false,
})

export function safeI18n(context: Readonly<RouterContextProvider>): i18n {
  try {
    return cheapToWrap(getInstance(context))
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
  return Object.create(instance) as i18n
}
