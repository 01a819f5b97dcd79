import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { isRouteErrorResponse, Link, Outlet, useMatches } from 'react-router'
import type { Route } from './+types/app-layout'
import { requireUser } from '#app/.server/auth.ts'
import { getCreditsSummary } from '#app/.server/credits.ts'
import { env } from '#app/.server/env.server.ts'
import { unreadNotifications } from '#app/.server/notifications/store.ts'
import { readSidebarCollapsed } from '#app/.server/preferences.ts'
import { ErrorState } from '#app/components/error-state.tsx'
import { Header } from '#app/components/layout/header.tsx'
import { DesktopSidebar } from '#app/components/layout/sidebar.tsx'
import { mirrorCollapsedToStorage, SidebarToggle, useSidebarCollapsed } from '#app/components/layout/sidebar-toggle.tsx'
import { buttonClasses } from '#app/components/ui/button.tsx'
import { cn } from '#app/utils/misc.ts'
import { pageTexts } from '#app/i18n.ts'

// The signed-in app's texts come with its pages, not with the signed-out pages' messages (app/i18n.ts).
await pageTexts('signedIn')

export interface AppHandle {
  /** i18n key of the page title (the document title; the page's h1 names it on screen). */
  titleKey?: string
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request)
  const [credits, sidebarCollapsed, unread] = await Promise.all([getCreditsSummary(user), readSidebarCollapsed(request), unreadNotifications(user)])
  return {
    user: { id: user.id, email: user.email },
    workspaces: user.workspaces.map(({ id, name, personal }) => ({ id, name, personal })),
    workspaceId: user.workspace.id,
    credits,
    sidebarCollapsed,
    unread,
    bookDemoUrl: env.bookDemoUrl,
  }
}

function usePageTitle() {
  const { t } = useTranslation()
  const matches = useMatches()
  const handle = [...matches].reverse().find((match) => (match.handle as AppHandle | undefined)?.titleKey)?.handle as AppHandle | undefined
  return handle?.titleKey ? t(handle.titleKey) : ''
}

export default function AppLayout({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation()
  const title = usePageTitle()
  const sidebar = useSidebarCollapsed(loaderData.sidebarCollapsed)
  useEffect(() => mirrorCollapsedToStorage(sidebar.collapsed), [sidebar.collapsed])
  return (
    <div className="min-h-full">
      <title>{title ? `${title} · LeadAtlas` : 'LeadAtlas'}</title>
      <a href="#main" className="sr-only z-50 rounded-lg bg-white px-3 py-2 text-sm font-medium focus:not-sr-only focus:fixed focus:top-3 focus:left-3">
        {t('app.skipToContent')}
      </a>
      <DesktopSidebar collapsed={sidebar.collapsed} toggle={<SidebarToggle {...sidebar} />} />
      <div className={cn('flex min-h-full flex-col transition-[padding] duration-200', sidebar.collapsed ? 'lg:pl-16' : 'lg:pl-64')}>
        <Header credits={loaderData.credits} bookDemoUrl={loaderData.bookDemoUrl} unread={loaderData.unread} workspaces={loaderData.workspaces} workspaceId={loaderData.workspaceId} />
        <main id="main" className="flex-1 px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
          <Outlet />
        </main>
      </div>
    </div>
  )
}

/** The "please sign in" card for a protected page reached without a session (e.g. a data request). */
export function SignInRequiredCard() {
  const { t } = useTranslation()
  return (
    <div className="animate-fade-in mx-auto mt-16 w-full max-w-md rounded-2xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200">
      <h1 className="text-xl font-semibold text-slate-900">{t('auth.signInRequiredTitle')}</h1>
      <p className="mt-2 text-sm text-slate-600">{t('auth.signInRequiredBody')}</p>
      <Link to="/login" className={buttonClasses({ className: 'mt-6' })}>
        {t('auth.signInButton')}
      </Link>
    </div>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 401) return <SignInRequiredCard />
  if (!isRouteErrorResponse(error)) console.error(error)
  return (
    <main className="flex min-h-full items-center justify-center p-6">
      <ErrorState status={isRouteErrorResponse(error) ? error.status : 500} />
    </main>
  )
}
