import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Form, Link, useLocation } from 'react-router'
import { applyToggleRules, EXPORT_NAME_MAX, NO_ENRICHMENT, type EnrichmentOptions } from '#app/domain/enrichment.ts'
import { WATCH_SCHEDULE_KINDS } from '#app/domain/saved-search-commands.ts'
import { DEFAULT_TIME_ZONE, weekdayName } from '#app/domain/saved-searches.ts'
import { useLazyValidation } from '#app/utils/lazy-validation.ts'
import { cn, useHydrated, useIsPending } from '#app/utils/misc.ts'
import { EnrichmentToggles } from '../exports/enrichment-toggles.tsx'
import { SelectField } from '../saved-searches/select-field.tsx'
import { Alert } from '../ui/alert.tsx'
import { Button, buttonClasses } from '../ui/button.tsx'
import { Field } from '../ui/field.tsx'

const loadSchema = () => import('#app/domain/saved-search-commands.ts').then((module) => module.WatchNewCompaniesSchema)

const HOURS = Array.from({ length: 24 }, (_, hour) => hour)
const DAYS = Array.from({ length: 31 }, (_, index) => index + 1)
const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7]

/**
 * "Watch new companies": the page's registry filters saved as a new_companies saved search, weekly or monthly, with
 * the saved searches' schedule fields. Reachable by URL (?watch=1), a plain POST form, so it works without JavaScript;
 * with it the schema checks the fields before sending (the server checks them again).
 */
export function WatchForm({ filters, defaultName, closeHref, lastResult, error }: { filters: string; defaultName: string; closeHref: string; lastResult?: SubmissionResult<string[]>; error?: string }) {
  const { t, i18n } = useTranslation()
  const location = useLocation()
  const hydrated = useHydrated()
  const pending = useIsPending({ intent: 'watch-new-companies' })
  const [options, setOptions] = useState<EnrichmentOptions>(() => applyToggleRules({ ...NO_ENRICHMENT, phone: true, website: true }, { france: true }))
  const [form, fields] = useForm({
    id: 'watch-form',
    lastResult,
    defaultValue: { name: defaultName, scheduleKind: 'weekly', weekday: '1', day: '1', hour: '8', timeZone: DEFAULT_TIME_ZONE },
    ...useLazyValidation('watch-form', loadSchema, { shouldValidate: 'onSubmit', shouldRevalidate: 'onInput' }),
  })
  const translate = (errors?: string[]) => errors?.map((key) => t(key, { max: EXPORT_NAME_MAX }))
  const kind = String(fields.scheduleKind.value ?? 'weekly')
  // The browser's zone when scripts run; the default (Europe/Paris) without them.
  const zone = hydrated ? Intl.DateTimeFormat().resolvedOptions().timeZone || DEFAULT_TIME_ZONE : DEFAULT_TIME_ZONE
  return (
    <section aria-labelledby="watch-title" className="space-y-5 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-brand-200 sm:p-6" data-testid="watch-form">
      <div>
        <h2 id="watch-title" className="text-lg font-semibold text-slate-900">
          {t('companies.watch.title')}
        </h2>
        <p className="mt-1 text-sm text-slate-600">{t('companies.watch.description')}</p>
      </div>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <Form method="post" action={`/companies${location.search}`} {...getFormProps(form)} className="space-y-5">
        <input type="hidden" name="intent" value="watch-new-companies" />
        <input type="hidden" name="filters" value={filters} />
        <input type="hidden" name="timeZone" value={zone} />
        <Field label={t('savedSearches.save.name')} errors={translate(fields.name.errors)} inputProps={{ ...getInputProps(fields.name, { type: 'text' }), maxLength: EXPORT_NAME_MAX, autoComplete: 'off' }} />
        <fieldset>
          <legend className="text-sm font-medium text-slate-700">{t('savedSearches.editPage.scheduleKind')}</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {WATCH_SCHEDULE_KINDS.map((each) => (
              <label key={each} className="flex cursor-pointer items-center gap-3 rounded-lg p-3 text-sm ring-1 ring-slate-200 ring-inset has-[:checked]:bg-brand-50/60 has-[:checked]:ring-brand-200">
                <input type="radio" name={fields.scheduleKind.name} value={each} defaultChecked={(fields.scheduleKind.initialValue ?? 'weekly') === each} className="size-4 border-slate-300 text-brand-600" />
                <span className="font-medium text-slate-900">{t(`savedSearches.editPage.kinds.${each}`)}</span>
              </label>
            ))}
          </div>
          {fields.scheduleKind.errors?.length ? <p className="mt-1.5 text-sm text-red-600">{translate(fields.scheduleKind.errors)?.join(' ')}</p> : null}
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-3">
          {/* With JavaScript only the day the chosen kind uses is shown; without it both are, and the server reads the one it needs. */}
          <div className={cn(hydrated && kind !== 'weekly' && 'hidden')}>
            <SelectField label={t('savedSearches.editPage.weekday')} field={fields.weekday} errors={translate(fields.weekday.errors)} options={WEEKDAYS.map((day) => [String(day), weekdayName(day, i18n.language)])} />
          </div>
          <div className={cn(hydrated && kind !== 'monthly' && 'hidden')}>
            <SelectField label={t('savedSearches.editPage.day')} field={fields.day} errors={translate(fields.day.errors)} options={DAYS.map((day) => [String(day), String(day)])} />
          </div>
          <SelectField label={t('savedSearches.editPage.hour')} field={fields.hour} errors={translate(fields.hour.errors)} options={HOURS.map((hour) => [String(hour), `${String(hour).padStart(2, '0')}:00`])} />
        </div>
        <EnrichmentToggles value={options} onChange={setOptions} france />
        <p className="rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-800 ring-1 ring-emerald-200 ring-inset">{t('companies.watch.free')}</p>
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Link to={closeHref} preventScrollReset className={buttonClasses({ variant: 'secondary' })}>
            {t('common.cancel')}
          </Link>
          <Button type="submit" pending={pending} data-testid="watch-submit">
            {pending ? t('savedSearches.save.submitting') : t('companies.watch.submit')}
          </Button>
        </div>
      </Form>
    </section>
  )
}
