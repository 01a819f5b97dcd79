import { useTranslation } from 'react-i18next'
import type { ExportLeadView } from '#app/domain/lead-view.ts'
import type { PhoneType } from '#app/domain/phone-sources.ts'
import { cn } from '#app/utils/misc.ts'

/** Other numbers listed under the main one; beyond this the cell says how many more (the file has them all). */
const MAX_OTHER_PHONES = 2

function PhoneTypeTag({ type }: { type: PhoneType }) {
  const { t } = useTranslation()
  return <span className="ml-1.5 rounded bg-slate-100 px-1 py-px text-[11px] font-medium whitespace-nowrap text-slate-600">{t(`exports.detail.phoneType.${type}`)}</span>
}

/** The main number with its line type, then the business's other numbers (each typed), as the table and cards show them. */
export function LeadPhones({ lead, wrap }: { lead: ExportLeadView & { phone: NonNullable<ExportLeadView['phone']> }; wrap: boolean }) {
  const { t } = useTranslation()
  const shown = lead.otherPhones.slice(0, MAX_OTHER_PHONES)
  const hidden = lead.otherPhones.length - shown.length
  return (
    <ul className="min-w-0 space-y-0.5" aria-label={t('exports.detail.phonesLabel', { name: lead.name })}>
      <li className={cn('tabular-nums', wrap ? '' : 'whitespace-nowrap')}>
        {/* A number never breaks in the middle; its type tag may go to the next line on a narrow card. */}
        <a href={lead.phone.href} className="whitespace-nowrap text-slate-700 hover:text-brand-700">
          {lead.phone.text}
        </a>
        {lead.phoneType ? <PhoneTypeTag type={lead.phoneType} /> : null}
      </li>
      {shown.map((phone) => (
        <li key={phone.href} className={cn('text-xs tabular-nums', wrap ? '' : 'whitespace-nowrap')}>
          <a href={phone.href} className="whitespace-nowrap text-slate-600 hover:text-brand-700">
            {phone.text}
          </a>
          <PhoneTypeTag type={phone.type} />
        </li>
      ))}
      {hidden > 0 ? <li className="text-xs text-slate-500">{t('exports.detail.morePhones', { count: hidden })}</li> : null}
    </ul>
  )
}
