import { useTranslation } from 'react-i18next'
import { cn } from '#app/utils/misc.ts'
import { Icon } from './icons.tsx'

/** The sales team's booking link (BOOK_DEMO_URL), opened in a new tab. */
export function BookDemoLink({ href, className }: { href: string; className?: string }) {
  const { t } = useTranslation()
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className={cn('items-center gap-1.5 rounded-lg px-2.5 py-1.5 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900', className)}
    >
      {t('header.bookDemo')}
      <Icon name="external" className="size-4" />
    </a>
  )
}
