import { useTranslation } from 'react-i18next'
import type { LeadRisk } from '#app/domain/risk-shield.ts'

/** The company's open procedure or radiation, linked to its BODACC announcement (the court in the link's title). */
export function RiskBadge({ risk }: { risk: LeadRisk }) {
  const { t, i18n } = useTranslation()
  const day = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeZone: 'UTC' }).format(new Date(`${risk.date}T00:00:00Z`))
  return (
    <a
      href={risk.url}
      target="_blank"
      rel="noreferrer"
      title={risk.tribunal ?? undefined}
      className="rounded-md bg-red-50 px-1.5 py-0.5 text-xs font-medium whitespace-nowrap text-red-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
      data-testid="registry-risk"
    >
      {t(`exports.detail.risk.${risk.status}`, { date: day })}
    </a>
  )
}
