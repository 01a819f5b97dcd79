import { useEffect, useSyncExternalStore } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import type { Route } from './+types/logout'
import { getSupabase } from '#app/.server/supabase.ts'
import { Spinner } from '#app/components/ui/spinner.tsx'

export async function loader({ context }: Route.LoaderArgs) {
  // Ends this device's session; the cleared cookies ride on this response.
  await getSupabase(context).auth.signOut({ scope: 'local' }).catch(() => {})
  return null
}

const noopSubscribe = () => () => {}

export default function LogoutRoute() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  // True on any client-side render after hydration (e.g. the sidebar's Sign out link).
  const hydrated = useSyncExternalStore(noopSubscribe, () => true, () => false)
  useEffect(() => {
    const timer = setTimeout(() => navigate('/login', { replace: true }), 300)
    return () => clearTimeout(timer)
  }, [navigate])
  return (
    <main className="flex min-h-full items-center justify-center p-6">
      <title>{`${t('pages.logout')} · LeadAtlas`}</title>
      {/* Without JavaScript the browser itself moves on to /login. Not rendered by the client:
          a meta refresh inserted there would still reload /login after the timer below has
          navigated, clobbering wherever the user went next. */}
      {hydrated ? null : <meta httpEquiv="refresh" content="1;url=/login" />}
      <div role="status" className="flex items-center gap-3 text-slate-600">
        <Spinner className="size-5 text-brand-600" />
        <p className="text-sm font-medium">{t('logout.signingOut')}</p>
      </div>
    </main>
  )
}
