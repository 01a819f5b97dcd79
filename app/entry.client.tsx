import i18next from 'i18next'
import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { HydratedRouter } from 'react-router/dom'
import { fallbackLanguage, i18nOptions, isLanguage, loadMessages } from './i18n.ts'

// The server already chose the language (cookie → Accept-Language → en) and wrote it on <html lang>.
const lang = document.documentElement.lang
const language = isLanguage(lang) ? lang : fallbackLanguage

await i18next.use(initReactI18next).init({
  ...i18nOptions,
  lng: language,
  resources: { [language]: { translation: await loadMessages(language) } },
})

startTransition(() => {
  hydrateRoot(
    document,
    <I18nextProvider i18n={i18next}>
      <StrictMode>
        <HydratedRouter />
      </StrictMode>
    </I18nextProvider>,
  )
})
