import { useTranslation } from 'react-i18next'
import { useFetcher, useLocation } from 'react-router'
import { cn, useHydrated } from '#app/utils/misc.ts'
import { Icon } from './icons.tsx'

const LAYOUT_STORAGE_KEY = 'layout-storage'

/** Mirrors the preference where the spec expects it (localStorage "layout-storage" → menuCollapsed). */
export function mirrorCollapsedToStorage(collapsed: boolean) {
  try {
    localStorage.setItem(LAYOUT_STORAGE_KEY, JSON.stringify({ state: { menuCollapsed: collapsed }, version: 0 }))
  } catch {
    // Storage unavailable (private mode, quota): the preference cookie still holds the choice.
  }
}

/** Posts the new preference (a cookie the server reads for the first paint); optimistic with JS. */
export function useSidebarCollapsed(serverValue: boolean) {
  const fetcher = useFetcher({ key: 'sidebar-toggle' })
  const pending = fetcher.formData?.get('collapsed')
  const collapsed = pending != null ? pending === '1' : serverValue
  return { collapsed, fetcher }
}

export function SidebarToggle({ collapsed, fetcher }: ReturnType<typeof useSidebarCollapsed>) {
  const { t } = useTranslation()
  const location = useLocation()
  const hydrated = useHydrated()
  const label = collapsed ? t('nav.expand') : t('nav.collapse')
  return (
    <fetcher.Form
      method="post"
      action="/preferences"
      onSubmit={() => mirrorCollapsedToStorage(!collapsed)}
    >
      <input type="hidden" name="intent" value="sidebar" />
      <input type="hidden" name="collapsed" value={collapsed ? '0' : '1'} />
      {/* Without JavaScript the post is a plain navigation and must be redirected back. */}
      {hydrated ? <input type="hidden" name="fetcher" value="1" /> : null}
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      <button
        type="submit"
        aria-label={label}
        title={label}
        aria-expanded={!collapsed}
        className={cn('flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium text-slate-500 hover:bg-slate-100 hover:text-slate-900', collapsed && 'px-2')}
      >
        <Icon name={collapsed ? 'chevronRight' : 'chevronLeft'} className="size-5" />
        <span className={cn(collapsed && 'sr-only')}>{t('nav.collapse')}</span>
      </button>
    </fetcher.Form>
  )
}
