// Which columns a downloaded file holds (issue "Credits users can trust", item 6). Pure data, shared by the
// download menu (client) and the file's columns (app/.server/exports/download/columns.ts).
//
// A preset never names a column: every column says what it is for (its role, on the base lead columns and on
// each entry of the enrichment table) and, when a CRM knows it, its CRM header. So a column added to the
// enrichment table lands in the right presets by its entry's role, with no change here.

export const DOWNLOAD_PRESETS = ['all', 'contacts', 'crm'] as const
export type DownloadPreset = (typeof DOWNLOAD_PRESETS)[number]

/** What a file has when the user never chose (and what the API gives without `preset`): everything. */
export const DEFAULT_DOWNLOAD_PRESET: DownloadPreset = 'all'

/**
 * What a column is for. identity: who the business is and where; contact: a channel to reach it;
 * detail: everything else (coordinates, ratings, registry data...); status: an enrichment's outcome.
 */
export type ColumnRole = 'identity' | 'contact' | 'detail' | 'status'

/**
 * - all: every column, in the usual order;
 * - contacts: identity and contact channels only;
 * - crm: only the columns a CRM maps by itself, under the headers HubSpot's company/contact import and
 *   Pipedrive's organization import recognise (README, product decisions), one value per cell.
 * Provenance columns (source, its id, its link) are in every preset: app/domain/lead-provenance.ts.
 */
export const PRESET_ROLES: Readonly<Record<Exclude<DownloadPreset, 'crm'>, readonly ColumnRole[]>> = {
  all: ['identity', 'contact', 'detail', 'status'],
  contacts: ['identity', 'contact'],
}

export function isDownloadPreset(value: unknown): value is DownloadPreset {
  return typeof value === 'string' && (DOWNLOAD_PRESETS as readonly string[]).includes(value)
}

/** A stored preference read back: anything unknown (a preset since removed) is the default. */
export function storedDownloadPreset(value: unknown): DownloadPreset {
  return isDownloadPreset(value) ? value : DEFAULT_DOWNLOAD_PRESET
}

/** The locale keys of a preset's name and one-line description, for the download menu. */
export function presetLabelKeys(preset: DownloadPreset): { labelKey: string; hintKey: string } {
  return { labelKey: `downloadPresets.${preset}`, hintKey: `downloadPresets.${preset}Hint` }
}
