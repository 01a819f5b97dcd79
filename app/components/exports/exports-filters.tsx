import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import { SORT_CHOICES, sortValue, type ExportSort } from '#app/domain/export-list.ts'
import { EXPORT_STATUS_FILTERS, type ExportStatusFilter } from '#app/domain/exports.ts'
import type { MemberChoice } from '#app/domain/team.ts'
import { MemberSelect } from '../team/member-filter.tsx'
import { Button, buttonClasses } from '../ui/button.tsx'
import { Spinner } from '../ui/spinner.tsx'

const SELECT_CLASSES =
  'mt-1.5 block w-full rounded-lg border-0 bg-white py-2 pr-8 pl-3 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600 focus:outline-none sm:w-48'

/** The status filter and (narrow screens) the order: a GET form, submitted on change with JS, by its button without. */
export function ExportsFilters({ status, sort, filtering, members, member }: { status: ExportStatusFilter; sort: ExportSort; filtering: boolean; members: MemberChoice[]; member: string }) {
  const { t } = useTranslation()
  const submit = (event: React.ChangeEvent<HTMLSelectElement>) => event.currentTarget.form?.requestSubmit()
  return (
    <Form method="get" className="flex flex-wrap items-end gap-3" aria-label={t('exportsList.controls')}>
      <div className="min-w-0 flex-1 sm:flex-none">
        <label htmlFor="status-filter" className="block text-sm font-medium text-slate-700">
          {t('exports.filterLabel')}
        </label>
        <select id="status-filter" name="status" defaultValue={status} key={status} onChange={submit} className={SELECT_CLASSES}>
          {EXPORT_STATUS_FILTERS.map((filter) => (
            <option key={filter} value={filter}>
              {t(`exports.filter.${filter}`)}
            </option>
          ))}
        </select>
      </div>
      {members.length ? <MemberSelect members={members} member={member} /> : null}
      {/* Narrow screens have no column headers to click: the order is a select there. Hidden on wider screens, it
          still carries the current order when the status filter is submitted. */}
      <div className="min-w-0 flex-1 sm:flex-none md:hidden">
        <label htmlFor="sort-select" className="block text-sm font-medium text-slate-700">
          {t('exportsList.sortLabel')}
        </label>
        <select id="sort-select" name="sort" defaultValue={sortValue(sort)} key={sortValue(sort)} onChange={submit} className={SELECT_CLASSES}>
          {SORT_CHOICES.map((choice) => (
            <option key={sortValue(choice)} value={sortValue(choice)}>
              {t(`exportsList.sortChoices.${sortValue(choice)}`)}
            </option>
          ))}
        </select>
      </div>
      <noscript>
        <Button type="submit" variant="secondary">
          {t('exports.apply')}
        </Button>
      </noscript>
      {filtering ? <Spinner className="mb-2.5 size-5 text-brand-600" label={t('app.loading')} /> : null}
    </Form>
  )
}

/** No exports at all (the way to a first one), or none with the chosen status (the way back to all). */
export function ExportsEmpty({ filtered }: { filtered: boolean }) {
  const { t } = useTranslation()
  return (
    <div className="rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-14 text-center">
      {filtered ? (
        <>
          <p className="text-base font-semibold text-slate-900">{t('exports.emptyFiltered')}</p>
          <Link to="/exports" className={buttonClasses({ variant: 'secondary', className: 'mt-6' })}>
            {t('exports.clearFilter')}
          </Link>
        </>
      ) : (
        <>
          <p className="text-base font-semibold text-slate-900">{t('exports.empty')}</p>
          <p className="mt-1 text-sm text-slate-600">{t('exports.emptyBody')}</p>
          <Link to="/" className={buttonClasses({ className: 'mt-6' })}>
            {t('exports.newExport')}
          </Link>
        </>
      )}
    </div>
  )
}
