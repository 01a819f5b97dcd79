import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { NOTIFICATION_PREFERENCES, type NotificationPreferences } from '#app/domain/notifications.ts'
import { useIsPending } from '#app/utils/misc.ts'

/** The email switches, one per kind of event; the bell lists every event whatever they say. */
export function NotificationPreferencesForm({ preferences, saved }: { preferences: NotificationPreferences; saved: boolean }) {
  const { t } = useTranslation()
  const pending = useIsPending({ formAction: '/settings/notifications' })
  return (
    // scroll-mt: the save comes back to #notifications, which must land below the sticky header (h-16), not under it.
    <Form method="post" action="/settings/notifications" id="notifications" className="mt-6 scroll-mt-20 rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
      {/* min-w-0: a fieldset is at least as wide as its content by default, which would widen a phone's page. */}
      <fieldset className="min-w-0 p-6 sm:p-8">
        {/* A legend sits in the fieldset's border, above its padding, unless it floats; what follows clears it, so
            that nothing (the saved notice) is drawn behind it. */}
        <legend className="float-left w-full">
          <span className="block text-base font-semibold text-slate-900">{t('notifications.preferencesTitle')}</span>
          <span className="mt-1 block text-sm text-slate-600">{t('notifications.preferencesHint')}</span>
        </legend>
        <div className="clear-left space-y-4 pt-5">
          {saved ? <Alert tone="success">{t('notifications.preferencesSaved')}</Alert> : null}
          {NOTIFICATION_PREFERENCES.map((name) => (
            <label key={name} className="flex items-start gap-3 text-sm text-slate-700">
              <input
                type="checkbox"
                name={name}
                defaultChecked={preferences[name]}
                className="mt-0.5 size-4 shrink-0 rounded border-slate-300 text-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
              />
              <span className="min-w-0">{t(`notifications.preferences.${name}`)}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="flex justify-end rounded-b-2xl border-t border-slate-100 bg-slate-50 px-6 py-4 sm:px-8">
        <Button type="submit" pending={pending}>
          {t('notifications.savePreferences')}
        </Button>
      </div>
    </Form>
  )
}
