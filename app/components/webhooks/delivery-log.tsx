import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import type { WebhookDeliveryView } from '#app/domain/webhooks.ts'
import { formatDate } from '#app/utils/dates.ts'
import { eventLabel } from './event-checkboxes.tsx'
import { ColumnHeads } from '#app/components/ui/column-heads.tsx'

const STATE_TONES: Record<WebhookDeliveryView['state'], string> = {
  pending: 'bg-amber-50 text-amber-800 ring-amber-200',
  queued: 'bg-brand-50 text-brand-900 ring-brand-200',
  delivering: 'bg-brand-50 text-brand-900 ring-brand-200',
  succeeded: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
  failed: 'bg-red-50 text-red-700 ring-red-200',
}

/** Each delivery with its attempts (time, status, duration, start of the answer), and Redeliver once it is settled. */
export function DeliveryLog({ deliveries }: { deliveries: WebhookDeliveryView[] }) {
  const { t, i18n } = useTranslation()
  const date = (value: string) => formatDate(value, i18n.language, t, 'dateTime')
  if (deliveries.length === 0) return <p className="text-sm text-slate-600">{t('webhooks.log.empty')}</p>
  return (
    <ul className="space-y-4">
      {deliveries.map((delivery) => (
        <li key={delivery.id} className="rounded-xl ring-1 ring-slate-200" data-testid="webhook-delivery">
          <div className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
            <div className="min-w-0 space-y-1">
              <p className="flex flex-wrap items-center gap-2">
                <span className="font-medium text-slate-900">{eventLabel(t, delivery.eventType)}</span>
                <span className={`rounded-full px-2 py-0.5 text-xs font-medium ring-1 ${STATE_TONES[delivery.state]}`}>
                  {delivery.state === 'pending' && delivery.attemptCount > 0 && delivery.nextAttemptAt
                    ? t('webhooks.log.retryAt', { date: date(delivery.nextAttemptAt) })
                    : t(`webhooks.log.states.${delivery.state}`)}
                </span>
              </p>
              <p className="text-xs break-all text-slate-600">
                {date(delivery.createdAt)} · <code>{delivery.messageId}</code>
              </p>
            </div>
            {delivery.state === 'succeeded' || delivery.state === 'failed' ? (
              <Form method="post" className="shrink-0">
                <input type="hidden" name="intent" value="redeliver" />
                <input type="hidden" name="deliveryId" value={delivery.id} />
                <Button type="submit" variant="secondary" size="sm" aria-label={t('webhooks.log.redeliverNamed', { event: delivery.eventType, date: date(delivery.createdAt) })}>
                  {t('webhooks.log.redeliver')}
                </Button>
              </Form>
            ) : null}
          </div>
          {delivery.attempts.length ? (
            <div
              className="overflow-x-auto border-t border-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
              // Scrolls sideways on a phone: reachable with the keyboard, named for screen readers.
              tabIndex={0}
              role="region"
              aria-label={t('webhooks.log.attemptsOf', { event: delivery.eventType })}
            >
              <table className="w-full min-w-[36rem] text-left text-xs">
                <thead className="bg-slate-50 text-slate-600">
                  <ColumnHeads className="px-4 py-2 font-medium" labels={[t('webhooks.log.time'), t('webhooks.log.status'), t('webhooks.log.duration'), t('webhooks.log.response')]} />
                </thead>
                <tbody className="divide-y divide-slate-100 text-slate-700">
                  {delivery.attempts.map((attempt) => (
                    <tr key={attempt.attemptedAt}>
                      <td className="px-4 py-2 whitespace-nowrap">{date(attempt.attemptedAt)}</td>
                      <td className="px-4 py-2 whitespace-nowrap">{attempt.httpStatus ?? t('webhooks.log.noAnswer', { error: attempt.error ?? '' })}</td>
                      <td className="px-4 py-2 whitespace-nowrap">{t('webhooks.log.ms', { count: attempt.durationMs })}</td>
                      <td className="max-w-xs px-4 py-2">
                        <code className="line-clamp-2 break-all text-slate-600">{attempt.responseExcerpt || '—'}</code>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
        </li>
      ))}
    </ul>
  )
}
