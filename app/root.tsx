import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteLoaderData,
  type ShouldRevalidateFunctionArgs,
} from 'react-router'
import type { Route } from './+types/root'
import { ErrorState } from '#app/components/error-state.tsx'
import { getLocale, i18nextMiddleware } from '#app/.server/i18n.ts'
import { originCheckMiddleware } from '#app/.server/origin-check.ts'
import { allowHeaderMiddleware, requestGuardMiddleware } from '#app/.server/request-guard.ts'
import { supabaseMiddleware } from '#app/.server/supabase.ts'
import { isLanguage, loadMessages } from '#app/i18n.ts'
import type { DocumentHandle } from '#app/utils/document-handle.ts'
import { InlineStyles } from '#app/utils/inline-styles.tsx'
import { useHydrated } from '#app/utils/misc.ts'
import { useNonce } from '#app/utils/nonce.tsx'
import stylesheet from './app.css?url'

// i18n first: every refusal after it (bad request, cross-site post) renders in the user's language.
export const middleware: Route.MiddlewareFunction[] = [i18nextMiddleware, allowHeaderMiddleware, requestGuardMiddleware, originCheckMiddleware, supabaseMiddleware]

export const links: Route.LinksFunction = () => [
  // Production inlines the stylesheet (<InlineStyles />): no request blocks the first paint.
  ...(import.meta.env.PROD ? [] : [{ rel: 'stylesheet', href: stylesheet }]),
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
]

export async function loader({ context }: Route.LoaderArgs) {
  const locale = getLocale(context)
  return data({ locale })
}

/**
 * The locale is all the root loads, and only a post (the language switcher) changes it: a GET
 * navigation within one page (e.g. /login's modes) need not wait for the server for it.
 */
export function shouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (!formMethod && currentUrl.pathname === nextUrl.pathname) return false
  return defaultShouldRevalidate
}

export function Layout({ children }: { children: React.ReactNode }) {
  const rootData = useRouteLoaderData<typeof loader>('root')
  const scriptless = useMatches()
    .map((match) => match.handle as DocumentHandle | undefined)
    .find((handle) => handle?.scripts === false)
  // Once React runs (a client-side navigation to such a page), its scripts stay: unmounting them would not stop it.
  const hydrated = useHydrated()
  const scripts = hydrated || !scriptless
  const { i18n } = useTranslation()
  const locale = rootData?.locale ?? i18n.language ?? 'en'
  const nonce = useNonce()
  useSyncLanguage(locale)
  return (
    <html lang={locale} dir="ltr" className="h-full bg-slate-50">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <InlineStyles />
        <Links />
      </head>
      <body className="h-full text-slate-900 antialiased">
        {children}
        {scripts ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : scriptless?.pageScript ? (
          <script type="module" src={scriptless.pageScript} nonce={nonce} />
        ) : null}
      </body>
    </html>
  )
}

/** Keeps the client's i18next on the language the server chose (e.g. after the switcher posts). */
function useSyncLanguage(locale: string) {
  const { i18n } = useTranslation()
  useEffect(() => {
    if (!isLanguage(locale)) return
    // The spec's detection also reads local storage: mirror the server's choice there.
    try {
      localStorage.setItem('i18nextLng', locale)
    } catch {
      // Storage unavailable (private mode, quota): the cookie still carries the language.
    }
    if (i18n.language === locale) return
    void loadMessages(locale).then((messages) => {
      if (!i18n.hasResourceBundle(locale, 'translation')) i18n.addResourceBundle(locale, 'translation', messages)
      void i18n.changeLanguage(locale)
    })
  }, [locale, i18n])
}

export default function App() {
  return <Outlet />
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const status = isRouteErrorResponse(error) ? error.status : 500
  // Refusals thrown as data({ message }) carry a localized message; anything else is generic.
  const message = isRouteErrorResponse(error) && typeof error.data?.message === 'string' ? error.data.message : undefined
  return (
    <main className="flex min-h-full items-center justify-center p-6">
      <ErrorState status={status} message={message} />
    </main>
  )
}

