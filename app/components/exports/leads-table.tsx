import { useTranslation } from 'react-i18next'
import type { ExportLeadView } from '#app/.server/export-views.ts'
import type { EnrichmentType } from '#app/domain/enrichment.ts'
import { CategoryChips } from '../search/results.tsx'
import { Reviews } from '../search/reviews.tsx'
import { SocialIcons } from './social-icons.tsx'

function Missing({ status }: { status: string | undefined }) {
  const { t } = useTranslation()
  if (status === 'pending') return <span className="text-xs text-slate-500 italic">{t('exports.detail.pending')}</span>
  return <span className="text-slate-500">{t('exports.detail.notFoundValue')}</span>
}

function technologiesList(technologies: Record<string, string | string[]>) {
  return [...new Set(Object.values(technologies).flatMap((value) => (Array.isArray(value) ? value : [value])))].filter(Boolean)
}

function Cell({ lead, type }: { lead: ExportLeadView; type: EnrichmentType }) {
  const { t } = useTranslation()
  const status = lead.statuses[type]
  switch (type) {
    case 'phone':
      return lead.phone ? <a href={`tel:${lead.phone.replace(/\s/g, '')}`} className="whitespace-nowrap text-slate-700 hover:text-brand-700">{lead.phone}</a> : <Missing status={status} />
    case 'website':
      return lead.website ? (
        <a href={lead.website} target="_blank" rel="noopener noreferrer nofollow" className="block max-w-48 truncate text-brand-700 hover:underline">
          {lead.website.replace(/^https?:\/\//, '').replace(/\/$/, '')}
        </a>
      ) : (
        <Missing status={status} />
      )
    case 'email':
      return lead.email.length ? (
        <ul className="space-y-0.5">
          {lead.email.map((email) => (
            <li key={email}>
              <a href={`mailto:${email}`} className="text-slate-700 hover:text-brand-700">
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
      return list.length ? <CategoryChips types={list} /> : <Missing status={status} />
    }
    case 'social':
      return Object.keys(lead.socialMedia).length ? <SocialIcons links={lead.socialMedia} /> : <Missing status={status} />
    case 'admin_fr_info':
      return lead.adminFrInfo?.results?.length ? (
        <span className="rounded-md bg-emerald-50 px-1.5 py-0.5 text-xs font-medium text-emerald-700">{t('exports.detail.available')}</span>
      ) : (
        <Missing status={status} />
      )
  }
}

export function LeadsTable({ leads, chosen }: { leads: ExportLeadView[]; chosen: EnrichmentType[] }) {
  const { t } = useTranslation()
  return (
    <div className="overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
      <div className="overflow-x-auto">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <caption className="sr-only">{t('exports.detail.leads')}</caption>
          <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-500 uppercase">
            <tr>
              <th scope="col" className="px-4 py-3">{t('exports.detail.columns.name')}</th>
              <th scope="col" className="px-4 py-3">{t('exports.detail.columns.city')}</th>
              <th scope="col" className="px-4 py-3">{t('exports.detail.columns.categories')}</th>
              {chosen.map((type) => (
                <th key={type} scope="col" className="px-4 py-3">
                  {t(`exports.detail.columns.${type}`)}
                </th>
              ))}
              <th scope="col" className="px-4 py-3">{t('exports.detail.columns.reviews')}</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {leads.map((lead) => (
              <tr key={lead.id} className="align-top" data-testid="lead-row">
                <td className="px-4 py-3 font-medium text-slate-900">{lead.name}</td>
                <td className="px-4 py-3 text-slate-600">{lead.city ?? '—'}</td>
                <td className="px-4 py-3">
                  <CategoryChips types={lead.businessTypes} />
                </td>
                {chosen.map((type) => (
                  <td key={type} className="px-4 py-3" data-column={type}>
                    <Cell lead={lead} type={type} />
                  </td>
                ))}
                <td className="px-4 py-3">
                  <Reviews rating={lead.rating} count={lead.reviewCount} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  )
}
