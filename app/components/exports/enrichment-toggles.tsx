import { useTranslation } from 'react-i18next'
import { applyToggleRules, toggleStates, type EnrichmentOptions } from '#app/domain/enrichment.ts'
import { cn, useHydrated } from '#app/utils/misc.ts'

/**
 * The enrichment checkboxes (SPEC §4), labels and rules from the table of enrichment types
 * (technologies needs website, admin_fr_info only for France), already-enriched options locked. With JavaScript the rules apply as you click;
 * without it the server applies the same rules (applyToggleRules) on submit.
 */
export function EnrichmentToggles({
  value,
  onChange,
  france,
  alreadyEnriched,
}: {
  value: EnrichmentOptions
  onChange: (next: EnrichmentOptions) => void
  france: boolean
  alreadyEnriched?: EnrichmentOptions
}) {
  const { t } = useTranslation()
  const hydrated = useHydrated()
  const toggles = toggleStates(value, { france, alreadyEnriched })
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">{t('exports.modal.options')}</legend>
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        {toggles.map((toggle) => {
          const id = `enrich-${toggle.type}`
          // Without JS the technologies box stays clickable; the server drops it when website is off.
          const disabled = toggle.alreadyEnriched || (hydrated && toggle.disabled)
          return (
            <label
              key={toggle.type}
              htmlFor={id}
              className={cn(
                'flex cursor-pointer items-start gap-3 rounded-lg p-3 ring-1 ring-slate-200 ring-inset hover:bg-slate-50 has-[:checked]:bg-brand-50/60 has-[:checked]:ring-brand-200',
                disabled && 'cursor-not-allowed opacity-60',
              )}
            >
              <input
                id={id}
                type="checkbox"
                name="options"
                value={toggle.type}
                checked={toggle.checked}
                disabled={disabled}
                onChange={(event) => onChange(applyToggleRules({ ...value, [toggle.type]: event.target.checked }, { france, alreadyEnriched }))}
                className="mt-0.5 size-4 rounded border-slate-300 text-brand-600 accent-brand-600"
              />
              <span className="text-sm">
                <span className="font-medium text-slate-900">{t(toggle.labelKey)}</span>
                {toggle.alreadyEnriched ? (
                  <span className="block text-xs text-slate-600">{t("exports.modal.alreadyEnriched")}</span>
                ) : toggle.hintKey ? (
                  <span className="block text-xs text-slate-600">{t(toggle.hintKey)}</span>
                ) : null}
              </span>
              {/* A disabled checkbox is not submitted: keep already-enriched options in the form data. */}
              {toggle.alreadyEnriched ? <input type="hidden" name="options" value={toggle.type} /> : null}
            </label>
          )
        })}
      </div>
    </fieldset>
  )
}
