// `?lang`: the one way a request chooses the language of the names and labels it gets back (or of what a command
// stores: the language an export searches in). Never the Accept-Language header, which only words a problem's
// `detail`: the same request always gives the same values (docs/api.md "Ids and languages").
import { z } from 'zod'
import { supportedLanguages } from '#app/i18n.ts'

/** The languages `?lang` takes. */
export const ApiLangSchema = z.enum(supportedLanguages)

/** `?lang=en|fr`, `fallback` when absent (each operation says what it words). */
export function langParam(fallback: (typeof supportedLanguages)[number], what: string) {
  return ApiLangSchema.default(fallback).meta({ description: `${what} (default ${fallback}), never the Accept-Language header: the same request always gives the same values.` })
}
