import i18next, { type i18n } from 'i18next'
import { createCookie, type RouterContextProvider } from 'react-router'
import { createI18nextMiddleware } from 'remix-i18next'
import { initReactI18next } from 'react-i18next'
import en from '#app/locales/en.json'
import fr from '#app/locales/fr.json'
import { fallbackLanguage, i18nOptions, supportedLanguages } from '#app/i18n.ts'

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
  i18next: { ...i18nOptions, resources: { en: { translation: en }, fr: { translation: fr } } },
  plugins: [initReactI18next],
})

// For a request that failed before i18nextMiddleware ran: the error page still renders, in English.
const fallbackInstance = i18next.createInstance()
void fallbackInstance.use(initReactI18next).init({
  ...i18nOptions,
  lng: fallbackLanguage,
  resources: { en: { translation: en }, fr: { translation: fr } },
  initAsync: false,
})

export function safeI18n(context: Readonly<RouterContextProvider>): i18n {
  try {
    return getInstance(context)
  } catch {
    return fallbackInstance
  }
}
