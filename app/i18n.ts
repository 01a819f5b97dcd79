// Shared by server and client: the languages we ship and how i18next is configured.
export const supportedLanguages = ['en', 'fr'] as const
export type Language = (typeof supportedLanguages)[number]
export const fallbackLanguage: Language = 'en'

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (supportedLanguages as readonly string[]).includes(value)
}

export const i18nOptions = {
  supportedLngs: [...supportedLanguages],
  fallbackLng: fallbackLanguage,
  defaultNS: 'translation',
  interpolation: { escapeValue: false }, // React escapes
} as const

/** Loads one language's messages; Vite splits each into its own chunk so the client fetches only the active one. */
export async function loadMessages(language: Language) {
  const module = language === 'fr' ? await import('./locales/fr.json') : await import('./locales/en.json')
  return module.default
}
