import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import type { ListMappingView } from '#app/domain/list-views.ts'
import { dedupeKeyOfRow, LIST_COLUMN_KINDS, rowToListInput, type ListColumnKind } from '#app/domain/list-columns.ts'
import { rowMatchKind } from '#app/domain/list-match.ts'
import { useIsPending } from '#app/utils/misc.ts'
import { numberFormat } from '#app/utils/number-format.ts'
import { Alert } from '../ui/alert.tsx'
import { Button } from '../ui/button.tsx'

const selectClasses =
  'block w-full rounded-lg border-0 bg-white py-2 pr-8 pl-3 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600'

/**
 * The mapping step: what each column holds (guessed, then the member's choice), the first rows as the match will read
 * them — recomputed in the browser as a choice changes, by the same rule the server applies (rowToListInput) — and the
 * whole file's counts for the mapping the page was rendered with ("Update the preview" without JavaScript).
 */
export function ListMappingForm({ view, error }: { view: ListMappingView; error?: string }) {
  const { t, i18n } = useTranslation()
  const [columns, setColumns] = useState<ListColumnKind[]>(view.columns)
  const confirming = useIsPending({ intent: 'confirm' })
  const format = (value: number) => numberFormat(i18n.language).format(value)
  return (
    <Form method="post" className="space-y-6" aria-describedby={error ? 'list-mapping-error' : undefined}>
      {error ? (
        <Alert tone="error">
          <span id="list-mapping-error" data-testid="list-mapping-error">
            {error}
          </span>
        </Alert>
      ) : null}
      <fieldset className="rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
        <legend className="sr-only">{t('lists.mapping.columnsLegend')}</legend>
        <div className="border-b border-slate-100 px-6 py-4">
          <h2 className="text-sm font-semibold text-slate-900">{t('lists.mapping.columnsTitle')}</h2>
          <p className="mt-1 text-sm text-slate-600">{t('lists.mapping.columnsHint')}</p>
        </div>
        <ul className="divide-y divide-slate-100">
          {view.list.headers.map((header, i) => (
            <li key={i} className="grid gap-2 px-6 py-3 sm:grid-cols-[minmax(0,1fr)_14rem] sm:items-center sm:gap-6">
              <div className="min-w-0">
                <label htmlFor={`column-${i}`} className="block truncate text-sm font-medium text-slate-900">
                  {header || t('lists.mapping.untitled', { number: i + 1 })}
                </label>
                <p className="truncate text-xs text-slate-500">{view.examples[i]?.length ? view.examples[i]!.join(' · ') : t('lists.mapping.emptyColumn')}</p>
              </div>
              <select
                id={`column-${i}`}
                name={`columns[${i}]`}
                value={columns[i]}
                onChange={(event) => setColumns((current) => current.map((kind, c) => (c === i ? (event.target.value as ListColumnKind) : kind)))}
                className={selectClasses}
                data-testid={`column-${i}`}
              >
                {LIST_COLUMN_KINDS.map((kind) => (
                  <option key={kind} value={kind}>
                    {t(`lists.kinds.${kind}`)}
                  </option>
                ))}
              </select>
            </li>
          ))}
        </ul>
      </fieldset>
      <MappingPreview rows={view.previewRows} columns={columns} />
      <section aria-labelledby="list-counts-title" className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200" data-testid="list-counts">
        <h2 id="list-counts-title" className="text-sm font-semibold text-slate-900">
          {t('lists.mapping.countsTitle')}
        </h2>
        <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700">
          {(
            [
              ['usable', view.usable],
              ['unusable', view.unusableCount],
              ['duplicates', view.duplicateCount + view.list.repeatedRows],
            ] as const
          ).map(([key, count]) => (
            <li key={key}>{t(`lists.mapping.counts.${key}`, { count, formatted: format(count) })}</li>
          ))}
        </ul>
        <NoteLines notes={view.notes} />
        <UnusableRows view={view} />
      </section>
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button type="submit" name="intent" value="preview" variant="secondary" formNoValidate data-testid="list-preview-update">
          {t('lists.mapping.updatePreview')}
        </Button>
        <Button type="submit" name="intent" value="confirm" pending={confirming} data-testid="list-mapping-submit">
          {t('lists.mapping.submit')}
        </Button>
      </div>
    </Form>
  )
}

/** The first rows as the match reads them: company, site, identifiers, place, and what it will match them by. */
function MappingPreview({ rows, columns }: { rows: string[][]; columns: ListColumnKind[] }) {
  const { t } = useTranslation()
  const read = rows.map((row) => rowToListInput(row, { columns }))
  // A row naming the company of an earlier one is left out, as the server's reading does (dedupeKeyOfRow).
  const firstOf = new Map<string, number>()
  const repeats = read.map((outcome, i) => {
    const key = 'input' in outcome ? dedupeKeyOfRow(outcome.input) : null
    if (key === null) return null
    const first = firstOf.get(key)
    if (first === undefined) firstOf.set(key, i)
    return first ?? null
  })
  return (
    <section aria-labelledby="list-preview-title" className="rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
      <h2 id="list-preview-title" className="border-b border-slate-100 px-6 py-4 text-sm font-semibold text-slate-900">
        {t('lists.mapping.previewTitle')}
      </h2>
      <div className="overflow-x-auto">
        <table className="min-w-full text-left text-sm" data-testid="list-preview">
          <thead className="bg-slate-50 text-xs font-medium text-slate-500">
            <tr>
              {(['name', 'website', 'ids', 'place', 'matchBy'] as const).map((key) => (
                <th key={key} scope="col" className="px-4 py-2 whitespace-nowrap">
                  {t(`lists.mapping.preview.${key}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {read.map((outcome, i) =>
              'input' in outcome ? (
                <tr key={i}>
                  <td className="px-4 py-2 text-slate-900">{outcome.input.name ?? '—'}</td>
                  <td className="px-4 py-2 text-slate-700">{outcome.input.domain ?? '—'}</td>
                  <td className="px-4 py-2 whitespace-nowrap text-slate-700 tabular-nums">{outcome.input.siret ?? outcome.input.siren ?? '—'}</td>
                  <td className="px-4 py-2 text-slate-700">{[outcome.input.postalCode, outcome.input.city].filter(Boolean).join(' ') || '—'}</td>
                  <td className="px-4 py-2 whitespace-nowrap text-slate-700">
                    {repeats[i] !== null ? t('lists.mapping.repeatOf') : t(`lists.matchBy.${rowMatchKind(outcome.input)}`)}
                  </td>
                </tr>
              ) : (
                <tr key={i} className="bg-amber-50/60">
                  <td colSpan={4} className="px-4 py-2 text-slate-600">
                    {outcome.unusable.cells.filter(Boolean).slice(0, 4).join(' · ') || '—'}
                  </td>
                  <td className="px-4 py-2 text-amber-800">{t(`lists.problems.${outcome.unusable.code}`)}</td>
                </tr>
              ),
            )}
          </tbody>
        </table>
      </div>
    </section>
  )
}

const NOTE_CODES = ['formula_text', 'invalid_email', 'invalid_phone', 'invalid_website', 'shared_website'] as const

/** What was noticed in rows that are still matched: each kind once, with how many. */
function NoteLines({ notes }: { notes: Record<string, number> }) {
  const { t, i18n } = useTranslation()
  const shown = NOTE_CODES.filter((code) => (notes[code] ?? 0) > 0)
  if (shown.length === 0) return null
  return (
    <ul className="mt-3 space-y-1 text-sm text-slate-600" data-testid="list-notes">
      {shown.map((code) => (
        <li key={code}>{t(`lists.notes.${code}`, { count: notes[code], formatted: numberFormat(i18n.language).format(notes[code]!) })}</li>
      ))}
    </ul>
  )
}

/** The rows that cannot be matched, with their line and why (the first ones), and the repeats left out. */
function UnusableRows({ view }: { view: ListMappingView }) {
  const { t } = useTranslation()
  if (view.unusable.length === 0 && view.duplicates.length === 0) return null
  return (
    <ul className="mt-3 max-h-64 space-y-1 overflow-y-auto text-sm text-slate-600" data-testid="list-problems">
      {view.unusable.map(({ line, problem }) => (
        <li key={`u${line}`}>
          {t('lists.mapping.line', { line })} — {t(`lists.problems.${problem.code}`)}
          {problem.value ? <span className="text-slate-500"> {t('lists.mapping.value', { value: problem.value })}</span> : null}
        </li>
      ))}
      {view.duplicates.map(({ line, sameAs }) => (
        <li key={`d${line}`}>{t('lists.mapping.duplicate', { line, sameAs })}</li>
      ))}
    </ul>
  )
}
