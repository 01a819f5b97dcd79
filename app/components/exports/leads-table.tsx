import { useTranslation } from 'react-i18next'
import type { ExportLeadView } from '#app/domain/lead-view.ts'
import type { EnrichmentType } from '#app/domain/enrichment.ts'
import { cn } from '#app/utils/misc.ts'
import { CategoryChips } from '../search/results.tsx'
import { Reviews } from '../search/reviews.tsx'
import { LeadPhones } from './lead-phones.tsx'
import { ReusedMark } from './reused-mark.tsx'
import { SocialIcons } from './social-icons.tsx'
import { NeverExportAction } from './never-export.tsx'
import { ChipList } from '../ui/chips.tsx'
import { RiskBadge } from './risk-badge.tsx'

const MAX_TECHNOLOGIES = 3

function Missing({ status }: { status: string | undefined }) {
  const { t } = useTranslation()
  if (status === 'pending') return <span className="text-xs text-slate-500 italic">{t('exports.detail.pending')}</span>
  return <span className="text-slate-500">{t('exports.detail.notFoundValue')}</span>
}

function technologiesList(technologies: Record<string, string | string[]>) {
  return [...new Set(Object.values(technologies).flatMap((value) => (Array.isArray(value) ? value : [value])))].filter(Boolean)
}

/**
 * One enrichment's value, the same in the table and in the mobile cards. Long text is cut with an ellipsis in the
 * table (the full value in its tooltip) and wraps in the cards, where there is no pointer to hover.
 */
function Value({ lead, type, wrap = false }: { lead: ExportLeadView; type: EnrichmentType; wrap?: boolean }) {
  const { t } = useTranslation()
  const status = lead.statuses[type]
  switch (type) {
    case 'phone':
      return lead.phone ? <LeadPhones lead={{ ...lead, phone: lead.phone }} wrap={wrap} /> : <Missing status={status} />
    case 'website':
      if (!lead.website) return <Missing status={status} />
      return lead.website.href ? (
        <a href={lead.website.href} target="_blank" rel="noopener noreferrer nofollow" title={lead.website.href} className={cn('text-brand-700 hover:underline', wrap ? 'break-all' : 'block truncate')}>
          {lead.website.host}
        </a>
      ) : (
        <span className={cn('text-slate-700', wrap ? 'break-all' : 'block truncate')}>{lead.website.host}</span>
      )
    case 'email':
      return lead.email.length ? (
        <ul className="min-w-0 space-y-0.5">
          {lead.email.map((email) => (
            <li key={email} className="[overflow-wrap:anywhere]">
              <a href={`mailto:${email}`} title={email} className="text-slate-700 hover:text-brand-700">
                {email}
              </a>
            </li>
          ))}
        </ul>
      ) : (
        <Missing status={status} />
      )
    case 'technologies': {
      const list = technologiesList(lead.technologies)
      return list.length ? <ChipList items={list} max={MAX_TECHNOLOGIES} nowrap /> : <Missing status={status} />
    }
    case 'social':
      return Object.keys(lead.socialMedia).length ? <SocialIcons links={lead.socialMedia} /> : <Missing status={status} />
    default:
      // Types with no value worth showing in a cell (the registry match) say whether it was found; the file has it.
      // A match the registry says is closed is flagged: the business may not be worth contacting.
      if (status !== 'success') return <Missing status={status} />
      if (lead.risk) return <RiskBadge risk={lead.risk} />
      if (lead.registryClosed) {
        return (
          <span className="rounded-md bg-red-50 px-1.5 py-0.5 text-xs font-medium whitespace-nowrap text-red-700" data-testid="registry-closed">
            {t('exports.detail.registryClosed')}
          </span>
        )
      }
      // A registry-first export's establishment the map does not know: its registry data is all there is.
      return lead.notFoundOnline ? (
        <span className="rounded-md bg-amber-50 px-1.5 py-0.5 text-xs font-medium whitespace-nowrap text-amber-800" data-testid="not-found-online">
          {t('exports.detail.notFoundOnline')}
        </span>
      ) : (
        <span className="rounded-md bg-emerald-50 px-1.5 py-0.5 text-xs font-medium whitespace-nowrap text-emerald-700">{t('exports.detail.available')}</span>
      )
  }
}

/** The value, and under it whether it was reused from an earlier purchase. */
function Enriched({ lead, type, wrap = false }: { lead: ExportLeadView; type: EnrichmentType; wrap?: boolean }) {
  const paidAt = lead.statuses[type] === 'success' ? lead.reused[type] : undefined
  if (!paidAt) return <Value lead={lead} type={type} wrap={wrap} />
  return (
    // A block, not a flex column: the value keeps the cell's width, so long emails still truncate.
    <div className="min-w-0">
      <Value lead={lead} type={type} wrap={wrap} />
      <div>
        <ReusedMark paidAt={paidAt} />
      </div>
    </div>
  )
}

// Compact widths per enrichment column: enough for a typical value, so all of them fit a laptop screen more often.
const COLUMN_CLASSES: Partial<Record<EnrichmentType, string>> = {
  website: 'max-w-44',
  // Emails wrap anywhere rather than being cut: a floor keeps the column readable.
  email: 'min-w-52 max-w-64',
  technologies: 'min-w-44 max-w-56',
  social: 'min-w-28',
}

/** Wide screens: a table in its card; it scrolls inside the card when the columns do not fit, the name staying put. */
function LeadsGrid({ leads, chosen }: { leads: ExportLeadView[]; chosen: EnrichmentType[] }) {
  const { t } = useTranslation()
  const th = 'px-3 py-2.5 align-bottom font-semibold'
  const td = 'px-3 py-2.5'
  return (
    <div className="hidden overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200 md:block" data-testid="leads-table">
      {/* Focusable so keyboard users can scroll it; labelled so the stop is announced. */}
      <div className="scroll-x rounded-2xl focus-visible:outline-offset-[-2px]" tabIndex={0} role="region" aria-label={t('leadsView.tableRegion')}>
        <p className="scroll-x-hint sticky left-0 items-center justify-end gap-1 border-b border-slate-100 px-4 py-1.5 text-xs font-medium text-slate-500" aria-hidden="true">
          {t('leadsView.scrollHint')}
          <span>→</span>
        </p>
        <table className="w-full text-sm">
          <caption className="sr-only">{t('exports.detail.leads')}</caption>
          <thead className="border-b border-slate-200 text-left text-xs tracking-wide text-slate-500 uppercase">
            <tr>
              <th scope="col" className={`${th} scroll-x-sticky sticky left-0 z-10 min-w-52 bg-slate-50 pl-4`}>
                {t('exports.detail.columns.name')}
              </th>
              <th scope="col" className={`${th} bg-slate-50`}>{t('exports.detail.columns.city')}</th>
              <th scope="col" className={`${th} bg-slate-50`}>{t('exports.detail.columns.categories')}</th>
              {chosen.map((type) => (
                <th key={type} scope="col" className={`${th} bg-slate-50`}>
                  {t(`exports.detail.columns.${type}`)}
                </th>
              ))}
              <th scope="col" className={`${th} bg-slate-50`}>{t('exports.detail.columns.reviews')}</th>
              {/* Positioned: the sr-only label is absolute, and must stay inside the scrolling card (not widen the page). */}
              <th scope="col" className={`${th} relative bg-slate-50 pr-3`}>
                <span className="sr-only">{t('exports.detail.columns.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {leads.map((lead) => (
              <tr key={lead.id} className="align-top" data-testid="lead-row">
                <th scope="row" className={`${td} scroll-x-sticky sticky left-0 z-10 max-w-64 min-w-52 bg-white pl-4 text-left font-medium break-words text-slate-900`} data-column="name">
                  {lead.name}
                </th>
                <td className={`${td} whitespace-nowrap text-slate-600`}>{lead.city ?? '—'}</td>
                <td className={`${td} min-w-44`}>
                  <CategoryChips types={lead.businessTypes} />
                </td>
                {chosen.map((type) => (
                  <td key={type} className={`${td} ${COLUMN_CLASSES[type] ?? 'whitespace-nowrap'}`} data-column={type}>
                    <Enriched lead={lead} type={type} />
                  </td>
                ))}
                <td className={`${td}`}>
                  <Reviews rating={lead.rating} count={lead.reviewCount} />
                </td>
                <td className="py-1.5 pr-3 text-right">
                  <NeverExportAction lead={lead} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  )
}

/** Narrow screens: one card per lead with every chosen enrichment, nothing to scroll sideways. */
function LeadCards({ leads, chosen }: { leads: ExportLeadView[]; chosen: EnrichmentType[] }) {
  const { t } = useTranslation()
  return (
    <ul className="space-y-3 md:hidden" aria-label={t('exports.detail.leads')} data-testid="lead-cards">
      {leads.map((lead) => (
        <li key={lead.id} className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200" data-testid="lead-card">
          <div className="flex items-start justify-between gap-2">
            <p className="min-w-0 font-semibold break-words text-slate-900">{lead.name}</p>
            <NeverExportAction lead={lead} className="-mt-1 -mr-1 shrink-0" />
          </div>
          {lead.city ? <p className="text-sm text-slate-500">{lead.city}</p> : null}
          {lead.businessTypes.length ? (
            <div className="mt-2">
              <CategoryChips types={lead.businessTypes} />
            </div>
          ) : null}
          <dl className="mt-3 divide-y divide-slate-100 border-t border-slate-100 text-sm">
            {chosen.map((type) => (
              <div key={type} className="grid grid-cols-[7rem_minmax(0,1fr)] items-start gap-3 py-2" data-column={type}>
                <dt className="text-xs font-medium text-slate-500">{t(`exports.detail.columns.${type}`)}</dt>
                <dd className="min-w-0">
                  <Enriched lead={lead} type={type} wrap />
                </dd>
              </div>
            ))}
            <div className="grid grid-cols-[7rem_minmax(0,1fr)] items-start gap-3 py-2" data-column="reviews">
              <dt className="text-xs font-medium text-slate-500">{t('exports.detail.columns.reviews')}</dt>
              <dd className="min-w-0">
                <Reviews rating={lead.rating} count={lead.reviewCount} />
              </dd>
            </div>
          </dl>
        </li>
      ))}
    </ul>
  )
}

export function LeadsTable({ leads, chosen }: { leads: ExportLeadView[]; chosen: EnrichmentType[] }) {
  return (
    <>
      <LeadsGrid leads={leads} chosen={chosen} />
      <LeadCards leads={leads} chosen={chosen} />
    </>
  )
}
