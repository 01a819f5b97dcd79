import { useTranslation } from 'react-i18next'
import { WEBHOOK_EVENTS, type WebhookEvent } from '#app/domain/webhooks.ts'

/** One checkbox per event (`events`, one value per ticked box), in a labelled group with its error. */
export function EventCheckboxes({ checked, errors, errorId }: { checked: readonly string[]; errors?: string[]; errorId: string }) {
  const { t } = useTranslation()
  return (
    <fieldset aria-describedby={errors?.length ? errorId : undefined}>
      <legend className="text-sm font-medium text-slate-900">{t('webhooks.eventsLegend')}</legend>
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        {WEBHOOK_EVENTS.map((event) => (
          <label key={event} className="flex items-start gap-3 text-sm text-slate-700">
            <input
              type="checkbox"
              name="events"
              value={event}
              defaultChecked={checked.includes(event)}
              className="mt-0.5 size-4 shrink-0 rounded border-slate-300 text-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
            />
            <span>
              {eventLabel(t, event)} <code className="text-xs text-slate-500">{event}</code>
            </span>
          </label>
        ))}
      </div>
      {errors?.length ? (
        <p id={errorId} className="mt-1.5 text-sm text-red-600">
          {errors.join(' ')}
        </p>
      ) : null}
    </fieldset>
  )
}

export function eventLabel(t: (key: string) => string, event: WebhookEvent | 'test'): string {
  return t(`webhooks.events.${event.replaceAll('.', '_')}`)
}

/** The events a re-rendered form had ticked (conform gives one value as a string, several as a list, none as undefined). */
export function typedEvents(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string')
  return typeof value === 'string' ? [value] : []
}
