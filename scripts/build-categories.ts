/**
 * Generates app/.server/taxonomy/categories.data.json, the bilingual business-category taxonomy.
 *
 *   npx tsx scripts/build-categories.ts
 *
 * Source: the iD editor's tagging schema, @openstreetmap/id-tagging-schema@7 (ISC licence,
 * © OpenStreetMap iD contributors): presets give the OSM tag, translations give fr/en names and
 * search terms. Google Places types and NAF codes come from the hand-made tables below. The output
 * is deterministic (sorted, no timestamps) so regenerating without a schema change gives no diff.
 */
import fs from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'
import { normalizeForSearch } from '#app/domain/text.ts'
import type { Category } from '#app/domain/categories.ts'

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
// Google Places (New) primary types (Table A) for the categories that have an obvious one.
// ---------------------------------------------------------------------------------------------
const GOOGLE_TYPES: Record<string, string> = {
  'amenity=arts_centre': 'cultural_center',
  'amenity=bank': 'bank',
  'amenity=bar': 'bar',
  'amenity=biergarten': 'bar',
  'amenity=cafe': 'cafe',
  'amenity=car_rental': 'car_rental',
  'amenity=car_wash': 'car_wash',
  'amenity=casino': 'casino',
  'amenity=childcare': 'child_care_agency',
  'amenity=cinema': 'movie_theater',
  'amenity=clinic': 'medical_clinic',
  'amenity=conference_centre': 'convention_center',
  'amenity=dentist': 'dentist',
  'amenity=doctors': 'doctor',
  'amenity=events_venue': 'event_venue',
  'amenity=fast_food': 'fast_food_restaurant',
  'amenity=food_court': 'food_court',
  'amenity=fuel': 'gas_station',
  'amenity=hospital': 'hospital',
  'amenity=ice_cream': 'ice_cream_shop',
  'amenity=internet_cafe': 'internet_cafe',
  'amenity=karaoke_box': 'karaoke',
  'amenity=kindergarten': 'preschool',
  'amenity=marketplace': 'market',
  'amenity=nightclub': 'night_club',
  'amenity=pharmacy': 'pharmacy',
  'amenity=post_office': 'post_office',
  'amenity=pub': 'pub',
  'amenity=public_bath': 'public_bath',
  'amenity=restaurant': 'restaurant',
  'amenity=theatre': 'performing_arts_theater',
  'amenity=veterinary': 'veterinary_care',
  'craft=caterer': 'catering_service',
  'craft=electrician': 'electrician',
  'craft=painter': 'painter',
  'craft=plumber': 'plumber',
  'craft=roofer': 'roofing_contractor',
  'healthcare=physiotherapist': 'physiotherapist',
  'healthcare=laboratory': 'medical_lab',
  'healthcare=podiatrist': 'foot_care',
  'leisure=amusement_arcade': 'video_arcade',
  'leisure=bowling_alley': 'bowling_alley',
  'leisure=dance': 'dance_hall',
  'leisure=fitness_centre': 'gym',
  'leisure=golf_course': 'golf_course',
  'leisure=ice_rink': 'ice_skating_rink',
  'leisure=marina': 'marina',
  'leisure=sauna': 'sauna',
  'leisure=sports_centre': 'sports_complex',
  'leisure=water_park': 'water_park',
  'office=accountant': 'accounting',
  'office=consulting': 'consultant',
  'office=company': 'corporate_office',
  'office=estate_agent': 'real_estate_agency',
  'office=insurance': 'insurance_agency',
  'office=lawyer': 'lawyer',
  'office=moving_company': 'moving_company',
  'office=telecommunication': 'telecommunications_service_provider',
  'shop=alcohol': 'liquor_store',
  'shop=bakery': 'bakery',
  'shop=beauty': 'beauty_salon',
  'shop=bicycle': 'bicycle_store',
  'shop=books': 'book_store',
  'shop=butcher': 'butcher_shop',
  'shop=car': 'car_dealer',
  'shop=car_parts': 'auto_parts_store',
  'shop=car_repair': 'car_repair',
  'shop=chocolate': 'chocolate_shop',
  'shop=clothes': 'clothing_store',
  'shop=coffee': 'coffee_shop',
  'shop=confectionery': 'candy_store',
  'shop=convenience': 'convenience_store',
  'shop=deli': 'deli',
  'shop=department_store': 'department_store',
  'shop=doityourself': 'home_improvement_store',
  'shop=electronics': 'electronics_store',
  'shop=florist': 'florist',
  'shop=funeral_directors': 'funeral_home',
  'shop=furniture': 'furniture_store',
  'shop=gift': 'gift_shop',
  'shop=greengrocer': 'grocery_store',
  'shop=hairdresser': 'hair_salon',
  'shop=hardware': 'hardware_store',
  'shop=houseware': 'home_goods_store',
  'shop=jewelry': 'jewelry_store',
  'shop=laundry': 'laundry',
  'shop=locksmith': 'locksmith',
  'shop=mall': 'shopping_mall',
  'shop=massage': 'massage',
  'shop=mobile_phone': 'cell_phone_store',
  'shop=pet': 'pet_store',
  'shop=psychic': 'psychic',
  'shop=shoes': 'shoe_store',
  'shop=sports': 'sporting_goods_store',
  'shop=storage_rental': 'storage',
  'shop=supermarket': 'supermarket',
  'shop=tailor': 'tailor',
  'shop=tattoo': 'body_art_service',
  'shop=travel_agency': 'travel_agency',
  'shop=wholesale': 'wholesaler',
  'tourism=aquarium': 'aquarium',
  'tourism=camp_site': 'campground',
  'tourism=caravan_site': 'rv_park',
  'tourism=chalet': 'cottage',
  'tourism=gallery': 'art_gallery',
  'tourism=guest_house': 'guest_house',
  'tourism=hostel': 'hostel',
  'tourism=hotel': 'hotel',
  'tourism=motel': 'motel',
  'tourism=museum': 'museum',
  'tourism=theme_park': 'amusement_park',
  'tourism=zoo': 'zoo',
}

// ---------------------------------------------------------------------------------------------
// NAF rév. 2 codes (INSEE) used to match French registry records (recherche-entreprises
// `activite_principale`). Only categories with an unambiguous activity are listed.
// ---------------------------------------------------------------------------------------------
const NAF_CODES: Record<string, readonly string[]> = {
  'amenity=bank': ['64.19Z'],
  'amenity=bar': ['56.30Z'],
  'amenity=biergarten': ['56.30Z'],
  'amenity=pub': ['56.30Z'],
  'amenity=cafe': ['56.30Z'],
  'amenity=restaurant': ['56.10A'],
  'amenity=fast_food': ['56.10C'],
  'amenity=car_rental': ['77.11A'],
  'amenity=car_wash': ['45.20A'],
  'amenity=casino': ['92.00Z'],
  'amenity=childcare': ['88.91A'],
  'amenity=cinema': ['59.14Z'],
  'amenity=clinic': ['86.10Z'],
  'amenity=hospital': ['86.10Z'],
  'amenity=conference_centre': ['82.30Z'],
  'amenity=exhibition_centre': ['82.30Z'],
  'amenity=dentist': ['86.23Z'],
  'amenity=doctors': ['86.21Z', '86.22C'],
  'amenity=fuel': ['47.30Z'],
  'amenity=nightclub': ['93.29Z'],
  'amenity=pharmacy': ['47.73Z'],
  'amenity=post_office': ['53.10Z'],
  'amenity=theatre': ['90.01Z'],
  'amenity=vehicle_inspection': ['71.20A'],
  'amenity=veterinary': ['75.00Z'],
  'amenity=driving_school': ['85.53Z'],
  'amenity=music_school': ['85.52Z'],
  'amenity=dancing_school': ['85.52Z'],
  'amenity=language_school': ['85.59B'],
  'amenity=kindergarten': ['85.10Z'],
  'craft=brewery': ['11.05Z'],
  'craft=carpenter': ['43.32A', '43.91A'],
  'craft=carpet_layer': ['43.33Z'],
  'craft=caterer': ['56.21Z'],
  'craft=chimney_sweeper': ['81.22Z'],
  'craft=cleaning': ['81.21Z'],
  'craft=clockmaker': ['95.25Z'],
  'craft=distillery': ['11.01Z'],
  'craft=electrician': ['43.21A'],
  'craft=floorer': ['43.33Z'],
  'craft=gardener': ['81.30Z'],
  'craft=glaziery': ['43.34Z'],
  'craft=hvac': ['43.22B'],
  'craft=insulation': ['43.29A'],
  'craft=joiner': ['43.32A'],
  'craft=metal_construction': ['43.32B'],
  'craft=painter': ['43.34Z'],
  'craft=parquet_layer': ['43.33Z'],
  'craft=photographer': ['74.20Z'],
  'craft=plasterer': ['43.31Z'],
  'craft=plumber': ['43.22A'],
  'craft=roofer': ['43.91B'],
  'craft=shoemaker': ['95.23Z'],
  'craft=stonemason': ['23.70Z'],
  'craft=tiler': ['43.33Z'],
  'craft=upholsterer': ['95.24Z'],
  'craft=watchmaker': ['95.25Z'],
  'craft=winery': ['11.02B'],
  'healthcare=laboratory': ['86.90B'],
  'healthcare=midwife': ['86.90D'],
  'healthcare=occupational_therapist': ['86.90E'],
  'healthcare=physiotherapist': ['86.90E'],
  'healthcare=podiatrist': ['86.90E'],
  'healthcare=speech_therapist': ['86.90E'],
  'healthcare=psychotherapist': ['86.90F'],
  'healthcare=alternative': ['86.90F'],
  'leisure=fitness_centre': ['93.13Z'],
  'leisure=sports_centre': ['93.11Z'],
  'leisure=water_park': ['93.21Z'],
  'office=accountant': ['69.20Z'],
  'office=advertising_agency': ['73.11Z'],
  'office=architect': ['71.11Z'],
  'office=consulting': ['70.22Z'],
  'office=employment_agency': ['78.10Z', '78.20Z'],
  'office=engineer': ['71.12B'],
  'office=estate_agent': ['68.31Z'],
  'office=graphic_design': ['74.10Z'],
  'office=insurance': ['66.22Z'],
  'office=it': ['62.01Z', '62.02A'],
  'office=lawyer': ['69.10Z'],
  'office=moving_company': ['49.42Z'],
  'office=notary': ['69.10Z'],
  'office=private_investigator': ['80.30Z'],
  'office=property_management': ['68.32A'],
  'office=security': ['80.10Z'],
  'office=surveyor': ['71.12A'],
  'office=tax_advisor': ['69.20Z'],
  'office=translator': ['74.30Z'],
  'shop=alcohol': ['47.25Z'],
  'shop=wine': ['47.25Z'],
  'shop=beverages': ['47.25Z'],
  'shop=antiques': ['47.79Z'],
  'shop=second_hand': ['47.79Z'],
  'shop=bakery': ['10.71C'],
  'shop=pastry': ['10.71D'],
  'shop=beauty': ['96.02B'],
  'shop=bicycle': ['47.64Z'],
  'shop=sports': ['47.64Z'],
  'shop=books': ['47.61Z'],
  'shop=butcher': ['47.22Z', '10.13B'],
  'shop=car': ['45.11Z'],
  'shop=car_parts': ['45.32Z'],
  'shop=tyres': ['45.32Z'],
  'shop=car_repair': ['45.20A'],
  'shop=motorcycle': ['45.40Z'],
  'shop=motorcycle_repair': ['45.40Z'],
  'shop=chocolate': ['47.24Z'],
  'shop=confectionery': ['47.24Z'],
  'shop=clothes': ['47.71Z'],
  'shop=computer': ['47.41Z'],
  'shop=mobile_phone': ['47.42Z'],
  'shop=electronics': ['47.43Z'],
  'shop=hifi': ['47.43Z'],
  'shop=appliance': ['47.54Z'],
  'shop=convenience': ['47.11B', '47.11C'],
  'shop=supermarket': ['47.11D', '47.11F'],
  'shop=department_store': ['47.19A'],
  'shop=greengrocer': ['47.21Z'],
  'shop=seafood': ['47.23Z'],
  'shop=tobacco': ['47.26Z'],
  'shop=cheese': ['47.29Z'],
  'shop=dairy': ['47.29Z'],
  'shop=cosmetics': ['47.75Z'],
  'shop=perfumery': ['47.75Z'],
  'shop=chemist': ['47.75Z'],
  'shop=medical_supply': ['47.74Z'],
  'shop=hearing_aids': ['47.74Z'],
  'shop=optician': ['47.78A'],
  'shop=dry_cleaning': ['96.01B'],
  'shop=laundry': ['96.01B'],
  'shop=fabric': ['47.51Z'],
  'shop=carpet': ['47.53Z'],
  'shop=curtain': ['47.53Z'],
  'shop=florist': ['47.76Z'],
  'shop=garden_centre': ['47.76Z'],
  'shop=pet': ['47.76Z'],
  'shop=funeral_directors': ['96.03Z'],
  'shop=furniture': ['47.59A'],
  'shop=hairdresser': ['96.02A'],
  'shop=hardware': ['47.52A'],
  'shop=paint': ['47.52A'],
  'shop=doityourself': ['47.52B'],
  'shop=jewelry': ['47.77Z'],
  'shop=watches': ['47.77Z'],
  'shop=bag': ['47.72B'],
  'shop=leather': ['47.72B'],
  'shop=shoes': ['47.72A'],
  'shop=massage': ['96.04Z'],
  'shop=music': ['47.63Z'],
  'shop=newsagent': ['47.62Z'],
  'shop=stationery': ['47.62Z'],
  'shop=photo': ['74.20Z'],
  'shop=shoe_repair': ['95.23Z'],
  'shop=tailor': ['95.29Z'],
  'shop=tattoo': ['96.09Z'],
  'shop=toys': ['47.65Z'],
  'shop=travel_agency': ['79.11Z'],
  'tourism=apartment': ['55.20Z'],
  'tourism=camp_site': ['55.30Z'],
  'tourism=caravan_site': ['55.30Z'],
  'tourism=chalet': ['55.20Z'],
  'tourism=guest_house': ['55.20Z'],
  'tourism=hostel': ['55.20Z'],
  'tourism=hotel': ['55.10Z'],
  'tourism=motel': ['55.10Z'],
  'tourism=museum': ['91.02Z'],
  'tourism=theme_park': ['93.21Z'],
  'tourism=zoo': ['91.04Z'],
  'tourism=aquarium': ['91.04Z'],
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
