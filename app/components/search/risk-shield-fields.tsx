import { useTranslation } from 'react-i18next'

const RISK_FIELDS = ['excludeInsolvent', 'excludeRadiated'] as const

/**
 * The risk shield's two boxes in a command's form: ticked by default where the command runs unattended (a saved
 * search), else as `defaultOn` says, or as the refused post sent them. Plain checkboxes, so they work without
 * JavaScript.
 */
export function RiskShieldFields({ sent, defaultOn = true, hintKey = 'savedSearches.save.riskHint' }: { sent?: Record<string, unknown>; defaultOn?: boolean; hintKey?: string }) {
  const { t } = useTranslation()
  return (
    <fieldset className="rounded-xl p-4 ring-1 ring-slate-200">
      <legend className="px-1 text-sm font-medium text-slate-800">{t('savedSearches.save.riskLegend')}</legend>
      <p className="mb-3 text-sm text-slate-500">{t(hintKey)}</p>
      <div className="space-y-2.5">
        {RISK_FIELDS.map((field) => (
          <label key={field} className="flex items-center gap-2.5 text-sm text-slate-700">
            <input
              type="checkbox"
              name={field}
              value="1"
              defaultChecked={sent ? Boolean(sent[field]) : defaultOn}
              className="size-4 rounded border-slate-300 text-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
            />
            {t(`search.filters.${field}`)}
          </label>
        ))}
      </div>
    </fieldset>
  )
}

/** The search's filters without the risk shield's, which the form's own boxes carry. */
export function withoutRiskFilters<T extends Record<(typeof RISK_FIELDS)[number], string>>(values: T): T {
  return { ...values, excludeInsolvent: '', excludeRadiated: '' }
}
