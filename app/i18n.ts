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

type Messages = { [key: string]: string | Messages }

/**
 * French typography: the space before : ; ? ! » and after « does not break (a line never starts with the colon).
 * Applied once to the French messages as they are loaded, not per translation: the texts stay plain in fr.json.
 */
export function withFrenchSpacing<T>(messages: T): T {
  const fix = (value: string | Messages): string | Messages =>
    typeof value === 'string'
      ? value.replace(/ ([:;?!»])/g, '\u00a0$1').replace(/« /g, '«\u00a0')
      : Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, fix(inner)]))
  return fix(messages as Messages) as T
}

/** Loads one language's messages; Vite splits each into its own chunk so the client fetches only the active one. */
export async function loadMessages(language: Language) {
  if (language === 'fr') return withFrenchSpacing((await import('./locales/fr.json')).default)
  return (await import('./locales/en.json')).default
}
