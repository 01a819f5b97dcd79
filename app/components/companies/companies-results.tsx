import { useTranslation } from 'react-i18next'
import type { RegistryEstablishment } from '#app/domain/registry-search.ts'
import type { LeadRisk } from '#app/domain/risk-shield.ts'
import { RiskBadge } from '../exports/risk-badge.tsx'

type Establishment = Pick<
  RegistryEstablishment,
  'siren' | 'siret' | 'name' | 'address' | 'postalCode' | 'city' | 'activityCode' | 'headcountBand' | 'creationDate' | 'directors' | 'personalDataWithheld' | 'demo'
> & { activityLabel: string | null; legalFormLabel: string | null; risk?: LeadRisk | null }

/** The registry's total ("10 000+" once capped) and its first 20 establishments: a table when wide, cards when narrow. */
export function CompaniesResults({ total, capped, establishments, children }: { total: number; capped: boolean; establishments: Establishment[]; children?: React.ReactNode }) {
  const { t, i18n } = useTranslation()
  const demo = establishments.some((e) => e.demo)
  const count = `${new Intl.NumberFormat(i18n.language).format(total)}${capped ? '+' : ''}`
  return (
    <section aria-labelledby="companies-results-title" className="space-y-3">
      <div className="flex flex-col gap-1 sm:flex-row sm:items-baseline sm:justify-between">
        <h2 id="companies-results-title" className="text-lg font-semibold text-slate-900" data-testid="companies-total">
          {t('companies.results.total', { count: total, formatted: count })}
        </h2>
        {establishments.length ? (
          <p className="flex items-center gap-2 text-sm text-slate-500">
            {/* Every row of a demo answer is generated: said once, beside the rows. */}
            {demo ? <span className="rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800 ring-1 ring-amber-200">{t('app.demoData')}</span> : null}
            {t('companies.results.preview', { count: establishments.length })}
          </p>
        ) : null}
      </div>
      {children}
      {establishments.length === 0 ? (
        <p className="rounded-2xl bg-white p-5 text-sm text-slate-600 shadow-sm ring-1 ring-slate-200">{t('companies.results.none')}</p>
      ) : (
        <>
          <EstablishmentTable establishments={establishments} />
          <EstablishmentCards establishments={establishments} />
        </>
      )}
    </section>
  )
}

function useFormatters() {
  const { t, i18n } = useTranslation()
  const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeZone: 'UTC' })
  return {
    name: (e: Establishment) => e.name ?? t('companies.results.withheldName'),
    address: (e: Establishment) => e.address ?? ([e.postalCode, e.city].filter(Boolean).join(' ') || '—'),
    headcount: (e: Establishment) => (e.headcountBand ? t(`companies.headcountBands.${e.headcountBand}`) : '—'),
    created: (e: Establishment) => (e.creationDate ? dates.format(new Date(`${e.creationDate}T00:00:00Z`)) : '—'),
    siret: (e: Establishment) => (e.siret ?? e.siren).replace(/^(\d{3})(\d{3})(\d{3})(\d{5})?$/, (_, a, b, c, d) => [a, b, c, d].filter(Boolean).join(' ')),
  }
}

/** Directors, or why there are none to show (a sole trader is the person: never listed). */
function Directors({ establishment }: { establishment: Establishment }) {
  const { t } = useTranslation()
  if (establishment.personalDataWithheld) return <span className="text-slate-500">{t('companies.results.partialDiffusion')}</span>
  if (establishment.directors.length === 0) return <span className="text-slate-400">—</span>
  return (
    <ul className="space-y-0.5">
      {establishment.directors.slice(0, 3).map((director, index) => (
        <li key={index}>
          {[director.firstNames, director.name].filter(Boolean).join(' ')}
          {director.role ? <span className="text-slate-500"> · {director.role}</span> : null}
        </li>
      ))}
    </ul>
  )
}

/** The NAF code, then its label in smaller type (the label repeats down a one-activity list). */
function Activity({ establishment }: { establishment: Establishment }) {
  if (!establishment.activityCode) return <span className="text-slate-400">—</span>
  return (
    <>
      <span className="tabular-nums">{establishment.activityCode}</span>
      {establishment.activityLabel ? <span className="block text-xs text-slate-500">{establishment.activityLabel}</span> : null}
    </>
  )
}

function EstablishmentTable({ establishments }: { establishments: Establishment[] }) {
  const { t } = useTranslation()
  const format = useFormatters()
  const headers = ['name', 'siret', 'address', 'activity', 'headcount', 'legalForm', 'created', 'directors'] as const
  return (
    // Focusable: a keyboard user scrolls the table sideways when it is wider than the screen.
    <div
      role="region"
      aria-label={t('companies.results.caption')}
      tabIndex={0}
      className="hidden overflow-x-auto rounded-2xl bg-white shadow-sm ring-1 ring-slate-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 md:block"
    >
      <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="companies-table">
        <caption className="sr-only">{t('companies.results.caption')}</caption>
        <thead className="bg-slate-50">
          <tr>
            {headers.map((header) => (
              <th key={header} scope="col" className="px-3 py-3 text-left text-xs font-semibold tracking-wide whitespace-nowrap text-slate-600 uppercase">
                {t(`companies.columns.${header}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {establishments.map((e) => (
            <tr key={e.siret ?? e.siren} className="align-top">
              <th scope="row" className="min-w-44 px-3 py-3 text-left font-medium text-slate-900">
                {format.name(e)}
                {e.risk ? (
                  <span className="mt-1 block">
                    <RiskBadge risk={e.risk} />
                  </span>
                ) : null}
              </th>
              <td className="px-3 py-3 whitespace-nowrap text-slate-700 tabular-nums">{format.siret(e)}</td>
              <td className="min-w-40 px-3 py-3 text-slate-700">{format.address(e)}</td>
              <td className="min-w-40 px-3 py-3 text-slate-700">
                <Activity establishment={e} />
              </td>
              <td className="min-w-24 px-3 py-3 text-slate-700">{format.headcount(e)}</td>
              <td className="min-w-36 px-3 py-3 text-slate-700">{e.legalFormLabel ?? '—'}</td>
              <td className="px-3 py-3 whitespace-nowrap text-slate-700">{format.created(e)}</td>
              <td className="min-w-32 px-3 py-3 text-slate-700">
                <Directors establishment={e} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

function EstablishmentCards({ establishments }: { establishments: Establishment[] }) {
  const { t } = useTranslation()
  const format = useFormatters()
  const rows: Array<[string, (e: Establishment) => React.ReactNode]> = [
    ['siret', format.siret],
    ['address', format.address],
    ['activity', (e) => <Activity establishment={e} />],
    ['headcount', format.headcount],
    ['legalForm', (e) => e.legalFormLabel ?? '—'],
    ['created', format.created],
    ['directors', (e) => <Directors establishment={e} />],
  ]
  return (
    <ul className="space-y-3 md:hidden" aria-label={t('companies.results.caption')} data-testid="companies-cards">
      {establishments.map((e) => (
        <li key={e.siret ?? e.siren} className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
          <p className="font-medium break-words text-slate-900">
            {format.name(e)}
          </p>
          {e.risk ? (
            <p className="mt-1">
              <RiskBadge risk={e.risk} />
            </p>
          ) : null}
          <dl className="mt-3 space-y-2 border-t border-slate-100 pt-3 text-sm">
            {rows.map(([key, value]) => (
              <div key={key} className="grid grid-cols-[7rem_1fr] gap-2">
                <dt className="text-xs text-slate-500">{t(`companies.columns.${key}`)}</dt>
                <dd className="min-w-0 break-words text-slate-700">{value(e)}</dd>
              </div>
            ))}
          </dl>
        </li>
      ))}
    </ul>
  )
}
