import { useTranslation } from 'react-i18next'
import type { SchemaConstraint } from '#app/domain/api-reference-schema.ts'
import { InlineText, inlineCodeClasses } from './inline-text.tsx'

export interface FieldRow {
  name: string
  type: string
  required: boolean
  /** Where a parameter goes (path, query, header); absent for body fields. */
  in?: 'path' | 'query' | 'header'
  description?: string
  enum?: string[]
  default?: string
  constraints: SchemaConstraint[]
}

/**
 * Parameters and body fields as a two-column list (name, type and requirement | description, allowed
 * values, default, bounds): reads as a table on wide screens and stacks on phones, where a four-column
 * table would squeeze every description into a sliver.
 */
export function FieldList({ rows, label }: { rows: FieldRow[]; label: string }) {
  const { t } = useTranslation()
  return (
    <dl aria-label={label} className="divide-y divide-slate-100 rounded-xl ring-1 ring-slate-200">
      {rows.map((row) => {
        const depth = row.name.split('.').length - 1
        return (
          // A nested field is indented as a whole (name and description), under its parent.
          <div
            key={`${row.in ?? 'body'}:${row.name}`}
            className="grid gap-x-6 gap-y-1.5 py-3 pr-4 pl-[calc(1rem+var(--depth)*0.75rem)] sm:grid-cols-[minmax(0,16rem)_minmax(0,1fr)]"
            style={{ '--depth': Math.min(depth, 4) } as React.CSSProperties}
          >
            <dt className="min-w-0">
              <code className="font-mono text-[0.8125rem] font-semibold break-all text-slate-900">{row.name}</code>
              <div className="mt-1 flex flex-wrap items-center gap-1.5 text-xs">
                <span className="font-mono text-slate-600">{row.type}</span>
                {row.in ? <span className="rounded bg-slate-100 px-1.5 py-0.5 text-slate-600">{t(`developers.operation.in.${row.in}`)}</span> : null}
                {row.required ? (
                  <span className="rounded bg-amber-50 px-1.5 py-0.5 font-medium text-amber-800 ring-1 ring-amber-200 ring-inset">{t('developers.operation.required')}</span>
                ) : (
                  <span className="text-slate-500">{t('developers.operation.optional')}</span>
                )}
              </div>
            </dt>
            <dd className="min-w-0 space-y-1.5 text-sm leading-6 text-slate-700">
              {row.description ? (
                <p>
                  <InlineText text={row.description} />
                </p>
              ) : null}
              <FieldDetails row={row} />
            </dd>
          </div>
        )
      })}
    </dl>
  )
}

function FieldDetails({ row }: { row: FieldRow }) {
  const { t } = useTranslation()
  return (
    <>
      {row.enum?.length ? (
        <p className="text-xs text-slate-600">
          {t('developers.operation.oneOf')}{' '}
          {row.enum.map((value, index) => (
            <span key={value}>
              {index ? ', ' : null}
              <code className={inlineCodeClasses}>{value}</code>
            </span>
          ))}
        </p>
      ) : null}
      {row.default !== undefined ? (
        <p className="text-xs text-slate-600">
          {t('developers.operation.default')} <code className={inlineCodeClasses}>{row.default}</code>
        </p>
      ) : null}
      {row.constraints.length ? (
        <p className="text-xs text-slate-600">{row.constraints.map((constraint) => t(`developers.operation.constraints.${constraint.kind}`, { count: constraint.value })).join(' · ')}</p>
      ) : null}
    </>
  )
}
