import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Icon } from './icons.tsx'

/** The bell: a link to /notifications with the unread count (works without JavaScript). */
export function NotificationBell({ unread }: { unread: number }) {
  const { t } = useTranslation()
  const label = unread > 0 ? t('notifications.bellUnread', { count: unread }) : t('notifications.bell')
  return (
    <Link
      to="/notifications"
      aria-label={label}
      title={label}
      className="relative inline-flex size-9 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
    >
      <Icon name="bell" />
      {unread > 0 ? (
        <span aria-hidden="true" data-testid="unread-count" className="absolute -top-0.5 -right-0.5 min-w-4.5 rounded-full bg-red-600 px-1 text-center text-[11px] leading-4.5 font-semibold text-white">
          {unread > 99 ? '99+' : unread}
        </span>
      ) : null}
    </Link>
  )
}
