// Download file names (SPEC §5 "Download file name"). Pure: shared by client and server.
//
// SPEC: the export name lowercased, every non-alphanumeric character replaced by an underscore,
// then the date (yyyy-MM-dd), then the extension:
//   "Boulangeries Paris 11e!" on 2026-11-22 -> "boulangeries_paris_11e__2026-11-22.csv"
//
// Decisions the spec leaves open:
// - "Alphanumeric" is ASCII [a-z0-9]. Accented Latin letters are first folded to ASCII
//   ("Café" -> "cafe", "Œuvre" -> "oeuvre", "Straße" -> "strasse") rather than becoming
//   underscores, since French names are the common case. Anything else (punctuation, spaces,
//   non-Latin scripts, emoji) becomes "_", one underscore per character; runs are not collapsed
//   (the spec's own example keeps "__").
// - A name with no ASCII letter or digit left (empty, "!!!", "東京") becomes "export".
// - The date is the UTC calendar day, so a file name never depends on the server's time zone.
// - The name part is capped at 150 characters so the file name stays far below the 255-byte
//   limit of common file systems; the result only ever contains [a-z0-9_.-].

import { foldToAscii } from './text.ts'

export type ExportFileExtension = 'csv' | 'xlsx'

const FALLBACK_FILE_NAME = 'export'
const FILE_NAME_MAX = 150

/** The name part of a download file name: [a-z0-9_] only, never empty. */
export function fileNameStem(name: string): string {
  // Array.from walks code points, so an astral character (emoji) is one underscore, not two.
  const stem = Array.from(foldToAscii(name), (char) => (/[a-z0-9]/.test(char) ? char : '_'))
    .slice(0, FILE_NAME_MAX)
    .join('')
  return /[a-z0-9]/.test(stem) ? stem : FALLBACK_FILE_NAME
}

/** yyyy-MM-dd of `date` in UTC. Throws a RangeError for an invalid date. */
export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10)
}

/** SPEC §5: `<name>_<yyyy-MM-dd>.<extension>`, e.g. "boulangeries_paris_11e__2026-11-22.csv". */
export function exportFileName(name: string, date: Date, extension: ExportFileExtension): string {
  return `${fileNameStem(name)}_${isoDay(date)}.${extension}`
}
