import { useTranslation } from 'react-i18next'
import { Form, NavLink, useLocation } from 'react-router'
import { cn } from '#app/utils/misc.ts'
import { Logo } from '../logo.tsx'
import { Icon, type IconName } from './icons.tsx'

// `reloadDocument`: the API reference is a script-free page (root.tsx), loaded as a document, never rendered client-side.
const NAV_ITEMS: Array<{ to: string; labelKey: string; icon: IconName; also?: string[]; reloadDocument?: boolean }> = [
  { to: '/', labelKey: 'nav.findLeads', icon: 'search', also: ['/search'] },
  { to: '/companies', labelKey: 'nav.companies', icon: 'companies' },
  { to: '/saved-searches', labelKey: 'nav.savedSearches', icon: 'bookmark' },
  { to: '/lists/new', labelKey: 'nav.lists', icon: 'upload', also: ['/lists'] },
  { to: '/exports', labelKey: 'nav.exports', icon: 'exports' },
  { to: '/subscription', labelKey: 'nav.subscription', icon: 'subscription' },
  { to: '/settings', labelKey: 'nav.settings', icon: 'settings' },
  { to: '/developers', labelKey: 'nav.developers', icon: 'code', reloadDocument: true },
]

/** The navigation list, shared by the desktop sidebar and the mobile drawer. */
export function SidebarNav({ collapsed = false, onNavigate }: { collapsed?: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation()
  const location = useLocation()
  const linkClasses = (active: boolean) =>
    cn(
      'group flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium transition-colors',
      active ? 'bg-brand-50 text-brand-700' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
      collapsed && 'justify-center px-0',
    )
  return (
    <nav aria-label={t('nav.mainMenu')} className="flex flex-1 flex-col">
      <ul className="flex flex-1 flex-col gap-1">
        {NAV_ITEMS.map((item) => {
          const extraActive = item.also?.some((path) => location.pathname === path || location.pathname.startsWith(`${path}/`)) ?? false
          return (
            <li key={item.to}>
              <NavLink
                to={item.to}
                end={item.to === '/'}
                reloadDocument={item.reloadDocument}
                onClick={onNavigate}
                title={collapsed ? t(item.labelKey) : undefined}
                className={({ isActive }) => linkClasses(isActive || extraActive)}
              >
                <Icon name={item.icon} className="size-5 shrink-0" />
                <span className={cn(collapsed && 'sr-only')}>{t(item.labelKey)}</span>
              </NavLink>
            </li>
          )
        })}
        <li className="mt-auto">
          {/* A form, not a link: signing out is a POST (a GET /logout from another site must not
              end the session), still one click with or without JavaScript. */}
          <Form method="post" action="/logout" onSubmit={onNavigate}>
            <button type="submit" title={collapsed ? t('nav.signOut') : undefined} className={cn(linkClasses(false), 'w-full cursor-pointer')}>
              <Icon name="logout" className="size-5 shrink-0" />
              <span className={cn(collapsed && 'sr-only')}>{t('nav.signOut')}</span>
            </button>
          </Form>
        </li>
      </ul>
    </nav>
  )
}

export function DesktopSidebar({ collapsed, toggle }: { collapsed: boolean; toggle: React.ReactNode }) {
  return (
    <aside
      className={cn(
        'fixed inset-y-0 left-0 z-30 hidden flex-col border-r border-slate-200 bg-white px-3 py-4 transition-[width] duration-200 lg:flex',
        collapsed ? 'w-16' : 'w-64',
      )}
      data-collapsed={collapsed}
    >
      <div className={cn('mb-6 flex items-center', collapsed ? 'justify-center' : 'px-2')}>
        <Logo collapsed={collapsed} />
      </div>
      <SidebarNav collapsed={collapsed} />
      <div className={cn('mt-3 border-t border-slate-100 pt-3', collapsed && 'flex justify-center')}>{toggle}</div>
    </aside>
  )
}
