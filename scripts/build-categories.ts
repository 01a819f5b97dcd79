/**
 * Generates app/.server/taxonomy/categories.data.json, the bilingual business-category taxonomy.
 *
 *   npx tsx scripts/build-categories.ts
 *
 * Source: the iD editor's tagging schema, @openstreetmap/id-tagging-schema@7 (ISC licence,
 * © OpenStreetMap iD contributors): presets give the OSM tag, translations give fr/en names and
 * search terms. Google Places types and NAF codes come from the hand-made tables in category-mappings.ts. The output
 * is deterministic (sorted, no timestamps) so regenerating without a schema change gives no diff.
 */
import fs from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'
import { normalizeForSearch } from '#app/domain/text.ts'
import type { Category } from '#app/domain/categories.ts'
import { GOOGLE_TYPES, NAF_CODES } from './category-mappings.ts'

const require = createRequire(import.meta.url)
const SCHEMA = '@openstreetmap/id-tagging-schema'
const OUTPUT = path.resolve(import.meta.dirname, '../app/.server/taxonomy/categories.data.json')

interface Preset {
  tags: Record<string, string>
  addTags?: Record<string, string>
  searchable?: boolean
  locationSet?: { include?: string[] }
}
interface PresetText {
  name?: string
  terms?: string[] | string
  aliases?: string[] | string
}

// ---------------------------------------------------------------------------------------------
// Which presets are businesses.
// amenity, leisure, tourism and education are mostly street furniture and public places, so only
// the listed values are kept; shop, craft, office and healthcare are businesses except a few.
// ---------------------------------------------------------------------------------------------
const ALLOWED: Record<string, readonly string[]> = {
  amenity: [
    'animal_boarding', 'animal_breeding', 'arts_centre', 'bank', 'bar', 'biergarten', 'bicycle_rental',
    'boat_rental', 'bureau_de_change', 'cafe', 'car_rental', 'car_wash', 'casino', 'childcare', 'cinema',
    'clinic', 'conference_centre', 'dentist', 'dive_centre', 'doctors', 'dojo', 'events_venue',
    'exhibition_centre', 'fast_food', 'food_court', 'fuel', 'funeral_hall', 'gambling', 'hookah_lounge',
    'hospital', 'ice_cream', 'internet_cafe', 'karaoke_box', 'marketplace', 'money_transfer',
    'motorcycle_rental', 'nightclub', 'pharmacy', 'post_office', 'pub', 'public_bath', 'restaurant',
    'studio', 'theatre', 'vehicle_inspection', 'veterinary',
  ],
  // education=* presets write amenity=* too (addTags); that older tag is what OSM data carries.
  education: ['dancing_school', 'driving_school', 'kindergarten', 'language_school', 'music_school', 'prep_school'],
  leisure: [
    'adult_gaming_centre', 'amusement_arcade', 'beach_resort', 'bowling_alley', 'dance', 'escape_game',
    'fitness_centre', 'golf_course', 'horse_riding', 'ice_rink', 'indoor_play', 'marina', 'miniature_golf',
    'resort', 'sauna', 'sports_centre', 'trampoline_park', 'water_park',
  ],
  tourism: [
    'alpine_hut', 'apartment', 'aquarium', 'camp_site', 'caravan_site', 'chalet', 'gallery', 'guest_house',
    'hostel', 'hotel', 'motel', 'museum', 'theme_park', 'trail_riding_station', 'zoo',
  ],
}
const DENIED: Record<string, readonly string[]> = {
  shop: ['vacant'],
  craft: [],
  office: ['diplomatic', 'forestry', 'government', 'political_party', 'quango', 'religion', 'therapist'],
  healthcare: ['blood_donation', 'sample_collection'],
}

// Labels from the schema that read badly in a business picker ("Pharmacy Counter", a
// half-sentence in French for clinics).
const LABEL_OVERRIDES: Record<string, Partial<Category['labels']>> = {
  'amenity=pharmacy': { en: 'Pharmacy' },
  'amenity=hospital': { en: 'Hospital', fr: 'Hôpital / centre hospitalier' },
  'amenity=clinic': { fr: 'Clinique / centre médical' },
  'amenity=kindergarten': { en: 'Preschool / Kindergarten', fr: "École maternelle / jardin d'enfants" },
  'healthcare=laboratory': { fr: "Laboratoire d'analyses médicales" },
  'leisure=resort': { fr: 'Complexe de loisirs' },
  // The French translation gives these pairs the same name.
  'shop=country_store': { fr: 'Quincaillerie-épicerie rurale' },
  'shop=shoe_repair': { fr: 'Cordonnerie (réparation de chaussures)' },
  'craft=shoemaker': { fr: 'Bottier (fabrication de chaussures)' },
}


// ---------------------------------------------------------------------------------------------

function readJson<T>(specifier: string): T {
  return JSON.parse(fs.readFileSync(require.resolve(specifier), 'utf8')) as T
}

function asList(value: string[] | string | undefined): string[] {
  if (value === undefined) return []
  // Older translation files hold comma-separated strings; dist files hold arrays.
  return Array.isArray(value) ? value : value.split(',')
}

function isWorldwide(preset: Preset): boolean {
  const include = preset.locationSet?.include
  return !include || include.includes('Planet') || include.includes('001')
}

function isBusinessPreset(presetId: string, preset: Preset): boolean {
  const [key, value, ...rest] = presetId.split('/')
  if (!key || !value || rest.length > 0) return false // sub-presets need several tags: out of scope
  if (preset.searchable === false || !isWorldwide(preset)) return false
  const allowed = ALLOWED[key]
  if (allowed) return allowed.includes(value)
  const denied = DENIED[key]
  return denied !== undefined && !denied.includes(value)
}

/** The single tag a business of this preset carries in OSM data. */
function osmTagOf(preset: Preset): { key: string; value: string } | null {
  const entries = Object.entries(preset.tags)
  if (entries.length !== 1) return null
  const [key, value] = entries[0]!
  if (value === '*') return null
  const amenity = preset.addTags?.amenity
  if (key === 'education' && amenity) return { key: 'amenity', value: amenity }
  return { key, value }
}

function categoryId(tag: { key: string; value: string }): string {
  const value = tag.value.replaceAll('_', '-')
  return tag.key === 'amenity' ? value : `${tag.key}-${value}`
}

/** Terms without duplicates (ignoring case/accents) and without the label itself. */
function cleanTerms(label: string, raw: string[]): string[] {
  const seen = new Set([normalizeForSearch(label)])
  const terms: string[] = []
  for (const term of raw.map((t) => t.trim()).filter(Boolean)) {
    const key = normalizeForSearch(term)
    if (seen.has(key)) continue
    seen.add(key)
    terms.push(term)
  }
  return terms
}

function build(): { categories: Category[]; schemaVersion: string } {
  const presets = readJson<Record<string, Preset>>(`${SCHEMA}/dist/presets.json`)
  type Translations = Record<string, { presets: { presets: Record<string, PresetText> } }>
  const en = readJson<Translations>(`${SCHEMA}/dist/translations/en.json`).en!.presets.presets
  const fr = readJson<Translations>(`${SCHEMA}/dist/translations/fr.json`).fr!.presets.presets
  const schemaVersion = readJson<{ version: string }>(`${SCHEMA}/package.json`).version

  const byTag = new Map<string, Category>()
  for (const presetId of Object.keys(presets).sort()) {
    const preset = presets[presetId]!
    if (!isBusinessPreset(presetId, preset)) continue
    const tag = osmTagOf(preset)
    const enText = en[presetId]
    if (!tag || !enText?.name) continue
    const tagKey = `${tag.key}=${tag.value}`
    if (byTag.has(tagKey)) continue
    const frText = fr[presetId]
    const overrides = LABEL_OVERRIDES[tagKey] ?? {}
    const labels = {
      en: overrides.en ?? enText.name,
      // French falls back to English when the schema has no translation yet.
      fr: overrides.fr ?? frText?.name ?? enText.name,
    }
    byTag.set(tagKey, {
      id: categoryId(tag),
      labels,
      terms: {
        fr: cleanTerms(labels.fr, [...asList(frText?.terms), ...asList(frText?.aliases)]),
        en: cleanTerms(labels.en, [...asList(enText.terms), ...asList(enText.aliases)]),
      },
      osm: tag,
      googleType: GOOGLE_TYPES[tagKey] ?? null,
      naf: [...(NAF_CODES[tagKey] ?? [])],
    })
  }
  const categories = [...byTag.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  return { categories, schemaVersion }
}

/** Fails the build on problems the app would otherwise show to users. */
function check(categories: Category[]): void {
  const problems: string[] = []
  const ids = new Set<string>()
  for (const category of categories) {
    if (ids.has(category.id)) problems.push(`duplicate category id ${category.id}`)
    ids.add(category.id)
  }
  for (const lang of ['fr', 'en'] as const) {
    const labels = new Map<string, string>()
    for (const category of categories) {
      const key = normalizeForSearch(category.labels[lang])
      const other = labels.get(key)
      // Two identical labels would be indistinguishable in the picker.
      if (other) problems.push(`same ${lang} label "${category.labels[lang]}" for ${other} and ${category.id}`)
      labels.set(key, category.id)
    }
  }
  const unusedTables = [...Object.keys(GOOGLE_TYPES), ...Object.keys(NAF_CODES), ...Object.keys(LABEL_OVERRIDES)]
    .filter((tag) => !categories.some((c) => `${c.osm.key}=${c.osm.value}` === tag))
  if (unusedTables.length > 0) problems.push(`mapping tables name unknown categories: ${unusedTables.join(', ')}`)
  if (problems.length > 0) throw new Error(`category taxonomy problems:\n- ${problems.join('\n- ')}`)
}

/** One category per line: readable diffs, a fraction of the size of fully indented JSON. */
function serialize(categories: Category[], schemaVersion: string): string {
  const header = {
    source: `${SCHEMA}@${schemaVersion} (ISC licence, © iD contributors): presets and fr/en translations; googleType and naf from tables in scripts/build-categories.ts`,
    generator: 'npx tsx scripts/build-categories.ts',
  }
  const lines = categories.map((category) => `    ${JSON.stringify(category)}`)
  return `{\n  "source": ${JSON.stringify(header.source)},\n  "generator": ${JSON.stringify(header.generator)},\n  "categories": [\n${lines.join(',\n')}\n  ]\n}\n`
}

const { categories, schemaVersion } = build()
check(categories)
const json = serialize(categories, schemaVersion)
fs.writeFileSync(OUTPUT, json)
console.log(`${categories.length} categories → ${path.relative(process.cwd(), OUTPUT)} (${(Buffer.byteLength(json) / 1024).toFixed(1)} KB)`)
