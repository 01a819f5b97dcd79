import { useTranslation } from 'react-i18next'
import type { ReferenceGroup } from '#app/domain/api-reference.ts'
import { cn } from '#app/utils/misc.ts'
import { GUIDE_SECTIONS } from './guide-sections.tsx'
import { MethodBadge } from './operation-section.tsx'

const linkClasses = 'block rounded-md px-2 py-1 text-sm text-slate-600 hover:bg-slate-100 hover:text-slate-900'
const headingClasses = 'px-2 text-xs font-semibold tracking-wide text-slate-500 uppercase'

function TocLists({ groups }: { groups: ReferenceGroup[] }) {
  const { t } = useTranslation()
  return (
    <div className="space-y-5">
      <div>
        <p className={headingClasses}>{t('developers.toc.guide')}</p>
        <ul className="mt-1.5 space-y-0.5">
          {GUIDE_SECTIONS.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`} className={linkClasses}>
                {t(section.titleKey)}
              </a>
            </li>
          ))}
        </ul>
      </div>
      {groups.map((group) => (
        <div key={group.anchor}>
          <p className={headingClasses}>
            <a href={`#${group.anchor}`} className="rounded hover:text-slate-900">
              {group.tag}
            </a>
          </p>
          <ul className="mt-1.5 space-y-0.5">
            {group.operations.map((operation) => (
              <li key={operation.anchor}>
                <a href={`#${operation.anchor}`} className={cn(linkClasses, 'flex items-start gap-2')}>
                  <MethodBadge method={operation.method} className="mt-0.5 w-12" />
                  <span className="min-w-0">{operation.summary}</span>
                </a>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  )
}

/**
 * The table of contents: a sticky column beside the reference on wide screens; on phones and tablets a
 * disclosure above it (a <details>, so it opens without JavaScript), closed so the content comes first.
 */
export function ReferenceToc({ groups }: { groups: ReferenceGroup[] }) {
  const { t } = useTranslation()
  return (
    <>
      <nav aria-label={t('developers.toc.label')} className="lg:hidden">
        <details className="group rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
          <summary className="flex cursor-pointer list-none items-center justify-between rounded-2xl px-4 py-3 text-sm font-semibold text-slate-900 [&::-webkit-details-marker]:hidden">
            {t('developers.toc.label')}
            <svg viewBox="0 0 24 24" className="size-4 text-slate-500 transition-transform group-open:rotate-180" aria-hidden="true">
              <path d="M19 9l-7 7-7-7" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
          </summary>
          <div className="border-t border-slate-100 px-2 py-3">
            <TocLists groups={groups} />
          </div>
        </details>
      </nav>
      <nav aria-label={t('developers.toc.label')} className="sticky top-20 hidden max-h-[calc(100vh-8rem)] overflow-y-auto pr-2 lg:block" data-testid="toc-desktop">
        <TocLists groups={groups} />
      </nav>
    </>
  )
}
