import { useTranslation } from 'react-i18next'

/** "Only new businesses": a plain checkbox (CreateExportSchema.onlyNew), so it posts the same with or without JavaScript. */
export function OnlyNewOption({ defaultChecked = false }: { defaultChecked?: boolean }) {
  const { t } = useTranslation()
  return (
    <div className="flex items-start gap-3 rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200">
      <input id="export-only-new" name="onlyNew" type="checkbox" defaultChecked={defaultChecked} aria-describedby="export-only-new-hint" className="mt-0.5 size-4 rounded border-slate-300 text-brand-600 focus-visible:ring-2 focus-visible:ring-brand-600" />
      <div>
        <label htmlFor="export-only-new" className="text-sm font-medium text-slate-800">
          {t('exports.modal.onlyNew')}
        </label>
        <p id="export-only-new-hint" className="text-sm text-slate-500">
          {t('exports.modal.onlyNewHint')}
        </p>
      </div>
    </div>
  )
}
