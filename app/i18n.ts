// Shared by server and client: the languages we ship and how i18next is configured.
import i18next from 'i18next'

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

/**
 * Messages the browser fetches with the pages that use them, not with every page's (vite.config.ts leaves them out of
 * the messages' chunk, which holds the signed-out pages' namespaces, and serves each bundle as
 * `virtual:page-messages/<language>/<bundle>`: an object of namespaces): `signedIn`, the namespaces of the signed-in
 * app, and `companies` and `webhooks`, one page's each. A route module awaits pageTexts() at its top, so its texts
 * are there before it renders or hydrates. The server has every message.
 */
const PAGE_MESSAGES = {
  signedIn: { en: () => import('virtual:page-messages/en/signedIn'), fr: () => import('virtual:page-messages/fr/signedIn') },
  companies: { en: () => import('virtual:page-messages/en/companies'), fr: () => import('virtual:page-messages/fr/companies') },
  webhooks: { en: () => import('virtual:page-messages/en/webhooks'), fr: () => import('virtual:page-messages/fr/webhooks') },
  apiSettings: { en: () => import('virtual:page-messages/en/apiSettings'), fr: () => import('virtual:page-messages/fr/apiSettings') },
  team: { en: () => import('virtual:page-messages/en/team'), fr: () => import('virtual:page-messages/fr/team') },
  doNotContact: { en: () => import('virtual:page-messages/en/doNotContact'), fr: () => import('virtual:page-messages/fr/doNotContact') },
  billing: { en: () => import('virtual:page-messages/en/billing'), fr: () => import('virtual:page-messages/fr/billing') },
  integrations: { en: () => import('virtual:page-messages/en/integrations'), fr: () => import('virtual:page-messages/fr/integrations') },
  lists: { en: () => import('virtual:page-messages/en/lists'), fr: () => import('virtual:page-messages/fr/lists') },
  subscription: { en: () => import('virtual:page-messages/en/subscription'), fr: () => import('virtual:page-messages/fr/subscription') },
} satisfies Record<string, Record<Language, () => Promise<{ default: Messages }>>>
type PageBundle = keyof typeof PAGE_MESSAGES

/** The page bundles this browser loaded, for each language, and those a language switch must bring too. */
const pageMessages: Record<Language, Partial<Record<PageBundle, Messages>>> = { en: {}, fr: {} }
const pageBundles = new Set<PageBundle>()

async function loadPageMessages(language: Language, bundle: PageBundle): Promise<Messages> {
  const loaded = pageMessages[language][bundle]
  if (loaded) return loaded
  const messages = (await PAGE_MESSAGES[bundle][language]()).default
  return (pageMessages[language][bundle] = language === 'fr' ? withFrenchSpacing(messages) : messages)
}

/** Loads one language's messages; Vite splits each into its own chunk so the client fetches only the active one. */
export async function loadMessages(language: Language): Promise<Messages> {
  const base: Messages = language === 'fr' ? withFrenchSpacing((await import('./locales/fr.json')).default) : (await import('./locales/en.json')).default
  // The bundles hold other namespaces than the base and than each other: merged side by side.
  const bundles = await Promise.all([...pageBundles].map((bundle) => loadPageMessages(language, bundle)))
  return Object.assign({}, base, ...bundles) as Messages
}

/**
 * A route module's `await pageTexts('companies')` at its top (browser only; the browser's i18next is the default
 * instance, entry.client.tsx): before i18next starts (the first page's route modules load before the entry), the
 * texts join the messages the entry loads; later (a client navigation), they are added to the running instance.
 */
export async function pageTexts(bundle: PageBundle): Promise<void> {
  if (typeof document === 'undefined') return
  pageBundles.add(bundle)
  const language = i18next.isInitialized ? i18next.language : document.documentElement.lang
  if (!isLanguage(language)) return
  const messages = await loadPageMessages(language, bundle)
  if (i18next.isInitialized) i18next.addResourceBundle(language, 'translation', messages, true, true)
}
