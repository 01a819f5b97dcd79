import { useTranslation } from 'react-i18next'
import { Form, useLocation } from 'react-router'
import { cn } from '#app/utils/misc.ts'

export interface SwitcherWorkspace {
  id: string
  name: string
  personal: boolean
}

/** A page of one workspace (an export, a saved search…) does not exist in another: switching lands on its list. */
function pathAfterSwitch(pathname: string): string {
  return pathname.replace(/^\/(exports|saved-searches|settings\/api\/webhooks)\/[^/]+.*$/, '/$1')
}

/**
 * The workspace switcher (issue 29 item 6), shown only to someone in several workspaces. A disclosure of plain form
 * buttons: it opens and switches without JavaScript too.
 */
export function WorkspaceSwitcher({ workspaces, currentId, className }: { workspaces: SwitcherWorkspace[]; currentId: string; className?: string }) {
  const { t } = useTranslation()
  const location = useLocation()
  if (workspaces.length < 2) return null
  const current = workspaces.find((workspace) => workspace.id === currentId) ?? workspaces[0]!
  return (
    <details className={cn('group relative', className)} data-testid="workspace-switcher">
      <summary className="flex max-w-28 sm:max-w-48 cursor-pointer list-none items-center gap-1.5 rounded-lg px-2.5 py-1.5 text-sm font-medium text-slate-700 ring-1 ring-slate-200 hover:bg-slate-50 focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none [&::-webkit-details-marker]:hidden">
        <span className="sr-only">{t('workspace.switcherLabel')}: </span>
        <span className="truncate">{current.name}</span>
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 shrink-0 text-slate-500 transition-transform group-open:rotate-180" fill="currentColor">
          <path fillRule="evenodd" d="M5.23 7.21a.75.75 0 0 1 1.06.02L10 11.06l3.71-3.83a.75.75 0 1 1 1.08 1.04l-4.25 4.39a.75.75 0 0 1-1.08 0L5.21 8.27a.75.75 0 0 1 .02-1.06Z" clipRule="evenodd" />
        </svg>
      </summary>
      <Form method="post" action="/preferences" className="absolute right-0 z-30 mt-2 w-64 rounded-xl bg-white p-1.5 shadow-lg ring-1 ring-slate-200">
        <input type="hidden" name="intent" value="workspace" />
        <input type="hidden" name="redirectTo" value={pathAfterSwitch(location.pathname)} />
        <p className="px-2.5 py-1.5 text-xs font-medium tracking-wide text-slate-500 uppercase">{t('workspace.switcherLabel')}</p>
        {workspaces.map((workspace) => (
          <button
            key={workspace.id}
            type="submit"
            name="workspaceId"
            value={workspace.id}
            aria-current={workspace.id === current.id ? 'true' : undefined}
            className={cn(
              'flex w-full items-center justify-between gap-2 rounded-lg px-2.5 py-2 text-left text-sm hover:bg-slate-50 focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none',
              workspace.id === current.id ? 'font-semibold text-slate-900' : 'text-slate-700',
            )}
          >
            <span className="truncate">{workspace.name}</span>
            {workspace.personal ? <span className="shrink-0 text-xs text-slate-500">{t('workspace.personal')}</span> : null}
          </button>
        ))}
      </Form>
    </details>
  )
}
