import { useTranslation } from 'react-i18next'
import { DOWNLOAD_PRESETS } from '#app/domain/download-presets.ts'

/** The file's columns a saved search's runs open with: the download menu's presets, as radio cards. */
export function PresetChoice({ name, defaultValue }: { name: string; defaultValue: string }) {
  const { t } = useTranslation()
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">{t('savedSearches.save.preset')}</legend>
      <div className="mt-2 grid gap-2 sm:grid-cols-3">
        {DOWNLOAD_PRESETS.map((preset) => (
          <label
            key={preset}
            className="flex cursor-pointer items-start gap-3 rounded-lg p-3 ring-1 ring-slate-200 ring-inset hover:bg-slate-50 has-[:checked]:bg-brand-50/60 has-[:checked]:ring-brand-200 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-600"
          >
            <input type="radio" name={name} value={preset} defaultChecked={defaultValue === preset} className="mt-0.5 size-4 border-slate-300 text-brand-600 focus:ring-brand-600" />
            <span className="text-sm">
              <span className="block font-medium text-slate-900">{t(`downloadPresets.${preset}`)}</span>
              <span className="block text-xs text-slate-600">{t(`downloadPresets.${preset}Hint`)}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  )
}
