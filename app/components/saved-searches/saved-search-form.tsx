import { getFormProps, getInputProps, useForm, type FieldMetadata, type SubmissionResult } from '@conform-to/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import { applyToggleRules, EXPORT_NAME_MAX, optionsFromValues, type EnrichmentOptions } from '#app/domain/enrichment.ts'
import { formatRunDate, isTimeZone, nextRunAfter, SCHEDULE_KINDS, weekdayName, type SavedSearch } from '#app/domain/saved-searches.ts'
import { useLazyValidation } from '#app/utils/lazy-validation.ts'
import { cn, useHydrated, useIsPending } from '#app/utils/misc.ts'
import { useTypedBeforeHydration } from '#app/utils/typed-before-hydration.ts'
import { EnrichmentToggles } from '../exports/enrichment-toggles.tsx'
import { Button, buttonClasses } from '../ui/button.tsx'
import { Field } from '../ui/field.tsx'
import { PresetChoice } from './preset-choice.tsx'
import { SelectField } from './select-field.tsx'
import { WATCH_SCHEDULE_KINDS } from '#app/domain/saved-search-commands.ts'

const loadSchema = () => import('#app/domain/saved-search-commands.ts').then((module) => module.UpdateSavedSearchSchema)

const HOURS = Array.from({ length: 24 }, (_, hour) => hour)
const DAYS = Array.from({ length: 31 }, (_, index) => index + 1)
const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7]

function text(value: number | null | undefined): string {
  return value === null || value === undefined ? '' : String(value)
}

/** The edit page's form: delivery (name, enrichments, columns, cap), schedule and the per-run credit budget. */
export function SavedSearchForm({
  saved,
  france,
  timeZones,
  connections,
  lastResult,
}: {
  saved: SavedSearch
  france: boolean
  timeZones: string[]
  connections: Array<{ id: string; name: string }>
  lastResult?: SubmissionResult<string[]>
}) {
  const { t } = useTranslation()
  const pending = useIsPending({ intent: 'update' })
  const [options, setOptions] = useState<EnrichmentOptions>(() => applyToggleRules(optionsFromValues(saved.enrichments, { france }), { france }))
  const formRef = useTypedBeforeHydration((typed) => {
    const chosen = typed.get('options')
    if (chosen) setOptions(optionsFromValues(chosen, { france }))
  })
  const [form, fields] = useForm({
    id: 'saved-search-form',
    lastResult,
    defaultValue: {
      name: saved.name,
      preset: saved.preset,
      maxLeads: text(saved.maxLeads),
      scheduleKind: saved.schedule.kind,
      weekday: text(saved.schedule.weekday ?? 1),
      day: text(saved.schedule.day ?? 1),
      hour: text(saved.schedule.hour),
      timeZone: saved.schedule.timeZone,
      creditBudget: text(saved.creditBudget),
    },
    ...useLazyValidation('saved-search-form', loadSchema, { shouldValidate: 'onSubmit', shouldRevalidate: 'onInput' }),
  })
  const translate = (errors?: string[]) => errors?.map((key) => t(key, { max: EXPORT_NAME_MAX }))
  const card = 'space-y-5 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8'
  return (
    <Form ref={formRef} method="post" {...getFormProps(form)} className="space-y-6">
      <input type="hidden" name="intent" value="update" />
      <div className={card}>
        <h2 className="text-lg font-semibold text-slate-900">{t('savedSearches.editPage.delivery')}</h2>
        <Field label={t('savedSearches.save.name')} errors={translate(fields.name.errors)} inputProps={{ ...getInputProps(fields.name, { type: 'text' }), maxLength: EXPORT_NAME_MAX, autoComplete: 'off' }} />
        <div>
          <EnrichmentToggles value={options} onChange={setOptions} france={france} />
          {fields.options.errors?.length ? <p className="mt-1.5 text-sm text-red-600">{translate(fields.options.errors)?.join(' ')}</p> : null}
        </div>
        <PresetChoice name={fields.preset.name} defaultValue={String(fields.preset.initialValue ?? saved.preset)} />
        <Field
          label={t('savedSearches.save.maxLeads')}
          hint={t('savedSearches.save.maxLeadsHint')}
          errors={translate(fields.maxLeads.errors)}
          inputProps={{ ...getInputProps(fields.maxLeads, { type: 'text' }), inputMode: 'numeric', autoComplete: 'off', className: 'sm:max-w-48' }}
        />
        <Field
          label={t('savedSearches.editPage.budget')}
          hint={t('savedSearches.editPage.budgetHint')}
          errors={translate(fields.creditBudget.errors)}
          inputProps={{ ...getInputProps(fields.creditBudget, { type: 'text' }), inputMode: 'numeric', autoComplete: 'off', className: 'sm:max-w-48' }}
        />
      </div>
      <ScheduleFields fields={fields} translate={translate} className={card} timeZones={timeZones} kinds={saved.kind === 'new_companies' ? WATCH_SCHEDULE_KINDS : SCHEDULE_KINDS} />
      {connections.length ? <PushFields connections={connections} chosen={saved.pushConnectionIds} errors={translate(fields.pushTo.errors)} className={card} /> : null}
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Link to="/saved-searches" className={buttonClasses({ variant: 'secondary' })}>
          {t('common.cancel')}
        </Link>
        <Button type="submit" pending={pending}>
          {pending ? t('savedSearches.editPage.submitting') : t('savedSearches.editPage.submit')}
        </Button>
      </div>
    </Form>
  )
}

/** "Push every run": the CRM connections each run's new businesses go to once the run completes. */
function PushFields({ connections, chosen, errors, className }: { connections: Array<{ id: string; name: string }>; chosen: string[]; errors: string[] | undefined; className: string }) {
  const { t } = useTranslation()
  return (
    <fieldset className={className}>
      <legend className="sr-only">{t('integrations.savedSearchPushTitle')}</legend>
      <h2 className="text-lg font-semibold text-slate-900" aria-hidden="true">
        {t('integrations.savedSearchPushTitle')}
      </h2>
      <p className="text-sm text-slate-600">{t('integrations.savedSearchPushHint')}</p>
      <div className="space-y-2">
        {connections.map((connection) => (
          <label key={connection.id} className="flex items-center gap-3 text-sm text-slate-700">
            <input type="checkbox" name="pushTo" value={connection.id} defaultChecked={chosen.includes(connection.id)} className="size-4 rounded border-slate-300 text-brand-600 focus:ring-brand-600" />
            {connection.name}
          </label>
        ))}
      </div>
      {errors?.length ? <p className="text-sm text-red-600">{errors.join(' ')}</p> : null}
    </fieldset>
  )
}

type FormFields = Record<'scheduleKind' | 'weekday' | 'day' | 'hour' | 'timeZone', FieldMetadata<unknown>>

/** When it runs: never by itself, weekly or monthly, at an hour of a time zone. */
function ScheduleFields({
  fields,
  translate,
  className,
  timeZones,
  kinds,
}: {
  fields: FormFields
  translate: (errors?: string[]) => string[] | undefined
  className: string
  timeZones: string[]
  /** A new-companies watch runs weekly or monthly: "never by itself" is not offered. */
  kinds: readonly string[]
}) {
  const { t, i18n } = useTranslation()
  const hydrated = useHydrated()
  const kind = String(fields.scheduleKind.value ?? 'none')
  return (
    <div className={className}>
      <h2 className="text-lg font-semibold text-slate-900">{t('savedSearches.editPage.scheduleTitle')}</h2>
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">{t('savedSearches.editPage.scheduleKind')}</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-3">
          {kinds.map((kind) => (
            <label
              key={kind}
              className="flex cursor-pointer items-start gap-3 rounded-lg p-3 text-sm ring-1 ring-slate-200 ring-inset hover:bg-slate-50 has-[:checked]:bg-brand-50/60 has-[:checked]:ring-brand-200 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-600"
            >
              <input type="radio" name={fields.scheduleKind.name} value={kind} defaultChecked={(fields.scheduleKind.initialValue ?? 'none') === kind} className="mt-0.5 size-4 border-slate-300 text-brand-600 focus:ring-brand-600" />
              <span className="font-medium text-slate-900">{t(`savedSearches.editPage.kinds.${kind}`)}</span>
            </label>
          ))}
        </div>
        {fields.scheduleKind.errors?.length ? <p className="mt-1.5 text-sm text-red-600">{translate(fields.scheduleKind.errors)?.join(' ')}</p> : null}
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        {/* With JavaScript only the day the chosen kind uses is shown; without it both are, and the server reads the one it needs. */}
        <div className={cn(hydrated && kind !== 'weekly' && 'hidden')}>
          <SelectField label={t('savedSearches.editPage.weekday')} field={fields.weekday} errors={translate(fields.weekday.errors)} options={WEEKDAYS.map((day) => [String(day), weekdayName(day, i18n.language)])} />
        </div>
        <div className={cn(hydrated && kind !== 'monthly' && 'hidden')}>
          <SelectField label={t('savedSearches.editPage.day')} hint={t('savedSearches.editPage.dayHint')} field={fields.day} errors={translate(fields.day.errors)} options={DAYS.map((day) => [String(day), String(day)])} />
        </div>
        <SelectField label={t('savedSearches.editPage.hour')} field={fields.hour} errors={translate(fields.hour.errors)} options={HOURS.map((hour) => [String(hour), `${String(hour).padStart(2, '0')}:00`])} />
        <SelectField label={t('savedSearches.editPage.timeZone')} field={fields.timeZone} errors={translate(fields.timeZone.errors)} options={timeZones.map((zone) => [zone, zone])} />
      </div>
      {hydrated ? <NextRunPreview fields={fields} /> : null}
    </div>
  )
}

/** The next run of the schedule as chosen, before saving (JavaScript only: it is computed in the browser). */
function NextRunPreview({ fields }: { fields: FormFields }) {
  const { t, i18n } = useTranslation()
  const kind = String(fields.scheduleKind.value ?? 'none')
  const timeZone = String(fields.timeZone.value ?? '')
  if ((kind !== 'weekly' && kind !== 'monthly') || !isTimeZone(timeZone)) return null
  const next = nextRunAfter({ kind, weekday: Number(fields.weekday.value), day: Number(fields.day.value), hour: Number(fields.hour.value), timeZone }, new Date())
  if (!next) return null
  return (
    <p className="text-sm text-slate-700" aria-live="polite" data-testid="next-run-preview">
      {t('savedSearches.editPage.nextRunPreview', { date: formatRunDate(next, timeZone, i18n.language) })}
    </p>
  )
}
