import { useTranslation } from 'react-i18next'
import { selectedTypes, type EnrichmentOptions } from '#app/domain/enrichment.ts'
import { ENRICHMENT } from '#app/domain/enrichment-types.ts'
import { exportCost, exportLeadCount, type FillRates, type PaidPositions } from '#app/domain/export-cost.ts'
import type { MatchCount } from '#app/domain/search.ts'
import { Alert } from '../ui/alert.tsx'
import { Button } from '../ui/button.tsx'
import { Field } from '../ui/field.tsx'
import { StatGrid } from '../ui/stat-grid.tsx'
import { numberFormat } from '#app/utils/number-format.ts'

export interface ExportCostInfo {
  /** The preview's free count (with the search's filters). */
  matches: MatchCount
  /** EXPORT_MAX_LEADS: no export holds more leads. */
  exportCap: number
  fillRates: FillRates
  /** Never pay twice: what the user already paid for among the businesses the export would take, by option. */
  paid?: PaidPositions
  /** ENRICHMENT_REUSE_DAYS: how long a paid enrichment stays free. */
  reuseDays?: number
}

/** Reads the max leads field: a whole number ≥ 1, else no cap of the user's own. */
function typedCap(text: string): number | null {
  const value = Number(text)
  return text.trim() !== '' && Number.isInteger(value) && value >= 1 ? value : null
}

/**
 * The export's cost before it starts: leads, the most it can cost, what it is expected to cost, the balance; when
 * the most exceeds the balance, how many leads the balance fully enriches. Its max leads field caps the export
 * (recomputed as typed with JavaScript; server-rendered from the last submission without).
 */
export function ExportCostPanel({
  cost,
  credits,
  options,
  field,
  typed,
  onTyped,
  last,
  hydrated,
}: {
  cost: ExportCostInfo
  credits: number
  options: EnrichmentOptions
  /** conform's max leads field (its errors are locale keys). */
  field: { id: string; name: string; errors?: string[] }
  /** The max leads as typed: the modal holds it, so a value typed before hydration is restored with the rest. */
  typed: string
  onTyped: (value: string) => void
  /** The last submission: the server's refusal. */
  last?: { maxLeadsError?: string }
  /** With JavaScript the panel follows every change; without it, "Recalculate" posts the choices and comes back. */
  hydrated: boolean
}) {
  const { t, i18n } = useTranslation()
  const errors = field.errors?.map((key) => t(key, { max: cost.exportCap })) ?? (last?.maxLeadsError ? [last.maxLeadsError] : undefined)
  const format = (value: number) => numberFormat(i18n.language).format(value)
  const types = selectedTypes(options)
  const cap = typedCap(typed)
  const leads = exportLeadCount(cost.matches.value, cost.exportCap, cap)
  const estimate = exportCost({ leads, types, fillRates: cost.fillRates, balance: credits, paid: cost.paid })
  // An "at least" count not cut by a cap is a floor: so are the credits computed from it.
  const floor = !cost.matches.exact && leads === cost.matches.value ? '+' : ''
  const stats = [
    { key: 'leads', value: `${format(estimate.leads)}${floor}` },
    { key: 'maxCredits', value: `${format(estimate.maxCredits)}${floor}` },
    { key: 'expectedCredits', value: `≈ ${format(estimate.expectedCredits)}${floor}` },
    { key: 'balance', value: format(credits) },
  ]
  return (
    <section aria-labelledby="export-cost-title" className="space-y-4 rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200 ring-inset" data-testid="export-cost">
      <h3 id="export-cost-title" className="text-sm font-semibold text-slate-900">
        {t('exports.modal.cost.title')}
      </h3>
      <StatGrid className="sm:grid-cols-4" stats={stats.map(({ key, value }) => ({ label: t(`exports.modal.cost.${key}`), value, testId: `cost-${key}` }))} />
      <AlreadyPaidNote leads={estimate.leads} paidLeads={estimate.paidLeads} reuseDays={cost.reuseDays ?? 0} />
      <p className="text-xs text-slate-500">{t('exports.modal.cost.expectedHint')}</p>
      {estimate.exceedsBalance ? (
        <Alert tone="warning">
          <span data-testid="cost-exceeds">{t('exports.modal.cost.exceeds', { count: estimate.fullyEnrichableLeads, formatted: format(estimate.fullyEnrichableLeads) })}</span>
        </Alert>
      ) : null}
      <Field
        label={t('exports.modal.cost.maxLeads')}
        hint={t('exports.modal.cost.maxLeadsHint', { formatted: format(cost.exportCap) })}
        errors={errors}
        inputProps={{
          id: field.id,
          name: field.name,
          type: 'number',
          inputMode: 'numeric',
          min: 1,
          max: cost.exportCap,
          step: 1,
          value: typed,
          onChange: (event) => onTyped(event.currentTarget.value),
          placeholder: estimate.exceedsBalance ? String(estimate.fullyEnrichableLeads) : undefined,
          className: 'sm:max-w-48',
        }}
      />
      {hydrated ? null : <RecalculateButton />}
      <SuccessRules options={options} />
    </section>
  )
}

/** Never pay twice, said before the export: how many of its leads hold enrichments already paid (free again). */
function AlreadyPaidNote({ leads, paidLeads, reuseDays }: { leads: number; paidLeads: number; reuseDays: number }) {
  const { t, i18n } = useTranslation()
  if (paidLeads === 0) return null
  const format = (value: number) => numberFormat(i18n.language).format(value)
  return (
    <p className="rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-800 ring-1 ring-emerald-200 ring-inset" data-testid="cost-already-paid">
      {t('exports.modal.cost.alreadyPaid', { count: leads, formatted: format(leads), paid: format(paidLeads), days: reuseDays })}
    </p>
  )
}

/** Without JavaScript: posts every choice of the form and renders the modal again with the figures for them. */
function RecalculateButton() {
  const { t } = useTranslation()
  return (
    <Button type="submit" name="recalculate" value="1" variant="secondary" size="sm" formNoValidate data-testid="cost-recalculate">
      {t('exports.modal.cost.recalculate')}
    </Button>
  )
}

/** What a credit buys: one line per chosen enrichment saying what counts as its success. */
function SuccessRules({ options }: { options: EnrichmentOptions }) {
  const { t } = useTranslation()
  const types = selectedTypes(options)
  if (types.length === 0) return null
  return (
    <div data-testid="success-rules">
      <h4 className="text-xs font-semibold tracking-wide text-slate-600 uppercase">{t('exports.modal.success.title')}</h4>
      <ul className="mt-1.5 list-disc space-y-1 pl-5 text-xs text-slate-600">
        {types.map((type) => (
          <li key={type}>{t(ENRICHMENT[type].successKey)}</li>
        ))}
      </ul>
    </div>
  )
}
