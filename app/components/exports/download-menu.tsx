import { useTranslation } from 'react-i18next'
import { CSV_SEPARATORS, defaultCsvSeparator } from '#app/domain/csv-format.ts'
import { DOWNLOAD_PRESETS, presetLabelKeys, type DownloadPreset } from '#app/domain/download-presets.ts'
import { Icon } from '../layout/icons.tsx'
import { buttonClasses } from '../ui/button.tsx'
import { Disclosure, rowMenu } from '../ui/disclosure.tsx'

interface FormatChoice {
  key: string
  /** The query parameter its submit button adds: the route's format defaults to CSV, so a CSV button names only its dialect. */
  name: 'separator' | 'format'
  value: string
  labelKey: string
  hintKey: string
}

/** One CSV entry per dialect (app/domain/csv-format.ts): a French Excel needs ";" and decimal commas, an English one ",". */
const CSV_CHOICES = {
  semicolon: { key: 'csv-semicolon', name: 'separator', value: 'semicolon', labelKey: 'downloadFormats.csvSemicolon', hintKey: 'downloadFormats.csvSemicolonHint' },
  comma: { key: 'csv-comma', name: 'separator', value: 'comma', labelKey: 'downloadFormats.csvComma', hintKey: 'downloadFormats.csvCommaHint' },
} satisfies Record<(typeof CSV_SEPARATORS)[number], FormatChoice>

const XLSX_CHOICE: FormatChoice = { key: 'xlsx', name: 'format', value: 'xlsx', labelKey: 'exports.detail.downloadExcel', hintKey: 'leadsView.download.xlsxHint' }

/** The choices in the order shown: the interface language's CSV dialect first, then the other, then Excel. */
function formatChoices(language: string): FormatChoice[] {
  const first = defaultCsvSeparator(language)
  return [first, ...CSV_SEPARATORS.filter((separator) => separator !== first)].map((separator): FormatChoice => CSV_CHOICES[separator]).concat(XLSX_CHOICE)
}

const ROW = 'block w-full rounded-lg px-2.5 py-2 text-left hover:bg-slate-50 focus-visible:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600'
const HEADING = 'px-2.5 pt-1.5 pb-1 text-xs font-medium text-slate-500'

/**
 * The Download menu: a plain GET form (it works without JavaScript), columns as radios preselected with the
 * user's last choice, then one submit button per format. The route remembers the preset it was sent.
 */
export function DownloadMenu({ exportId, userId, preset }: { exportId: string; userId: string; preset: DownloadPreset }) {
  const { t, i18n } = useTranslation()
  return (
    <Disclosure
      className={rowMenu.details}
      label={
        <span className={buttonClasses()}>
          <Icon name="exports" className="size-4" />
          {t('exports.detail.download')}
          <Icon name="chevronDown" className="size-4 opacity-80" />
        </span>
      }
      panelClassName={`${rowMenu.panel} sm:w-72`}
    >
      {/* A plain <form>, not React Router's: the browser itself must receive the attachment. */}
      <form method="get" action={`/api/exports/${exportId}/download`} data-testid="download-menu">
        <input type="hidden" name="userId" value={userId} />
        <fieldset>
          <legend className={HEADING}>{t('downloadPresets.label')}</legend>
          {DOWNLOAD_PRESETS.map((option) => (
            <PresetOption key={option} preset={option} checked={option === preset} />
          ))}
        </fieldset>
        {/* Checked: the route gets emails=valid (README "Email verification"). */}
        <label className="mt-1 flex cursor-pointer items-start gap-2.5 rounded-lg border-t border-slate-100 px-2.5 pt-2 pb-1.5 hover:bg-slate-50 has-[:focus-visible]:bg-slate-50">
          <input
            type="checkbox"
            name="emails"
            value="valid"
            aria-labelledby="download-valid-emails"
            aria-describedby="download-valid-emails-hint"
            className="mt-0.5 size-4 shrink-0 accent-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
          />
          <span className="min-w-0">
            <span id="download-valid-emails" className="block text-sm font-medium text-slate-900">
              {t('downloadPresets.validEmails')}
            </span>
            <span id="download-valid-emails-hint" className="block text-xs text-slate-500">
              {t('downloadPresets.validEmailsHint')}
            </span>
          </span>
        </label>
        <div role="group" aria-labelledby="download-format-heading">
          <p id="download-format-heading" className={`${HEADING} mt-1 border-t border-slate-100 pt-2`}>
            {t('downloadPresets.formatHeading')}
          </p>
          {formatChoices(i18n.language).map((choice) => (
            <button key={choice.key} type="submit" name={choice.name} value={choice.value} className={ROW} data-choice={choice.key}>
              <span className="block text-sm font-medium text-slate-900">{t(choice.labelKey)}</span>
              <span className="block text-xs text-slate-500">{t(choice.hintKey)}</span>
            </button>
          ))}
        </div>
        <p className="px-2.5 pt-1 pb-1.5 text-xs text-slate-500">{t('downloadPresets.provenance')}</p>
      </form>
    </Disclosure>
  )
}

function PresetOption({ preset, checked }: { preset: DownloadPreset; checked: boolean }) {
  const { t } = useTranslation()
  const { labelKey, hintKey } = presetLabelKeys(preset)
  const labelId = `download-preset-${preset}`
  const hintId = `${labelId}-hint`
  return (
    <label className="flex cursor-pointer items-start gap-2.5 rounded-lg px-2.5 py-1.5 hover:bg-slate-50 has-[:focus-visible]:bg-slate-50">
      <input
        type="radio"
        name="preset"
        value={preset}
        defaultChecked={checked}
        aria-labelledby={labelId}
        aria-describedby={hintId}
        className="mt-0.5 size-4 shrink-0 accent-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
      />
      <span className="min-w-0">
        <span id={labelId} className="block text-sm font-medium text-slate-900">
          {t(labelKey)}
        </span>
        <span id={hintId} className="block text-xs text-slate-500">
          {t(hintKey)}
        </span>
      </span>
    </label>
  )
}
