import { describe, expect, it } from 'vitest'
import { exportColumns } from '#app/.server/exports/download/columns.ts'
import { DOWNLOAD_PRESETS, isDownloadPreset, presetLabelKeys, storedDownloadPreset } from '#app/domain/download-presets.ts'
import { ENRICHMENT_TABLE } from '#app/domain/enrichment-types.ts'
import { sourceName, sourceUrl } from '#app/domain/lead-provenance.ts'
import en from '#app/locales/en.json'
import fr from '#app/locales/fr.json'

const ALL_OPTIONS = { phone: true, website: true, email: true, technologies: true, social: true, admin_fr_info: true }
const PROVENANCE_KEYS = ['source', 'source_id', 'source_url']
const keysOf = (preset: (typeof DOWNLOAD_PRESETS)[number]) => exportColumns(ALL_OPTIONS, 'en', preset).map((column) => column.key)

function lookup(messages: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), messages)
}

describe('download presets', () => {
  it('accept only the known presets; a stored unknown one reads as the default', () => {
    expect(DOWNLOAD_PRESETS.every(isDownloadPreset)).toBe(true)
    for (const bad of ['', 'ALL', 'everything', null, undefined, 3]) expect(isDownloadPreset(bad)).toBe(false)
    expect(storedDownloadPreset('crm')).toBe('crm')
    expect(storedDownloadPreset('removed-preset')).toBe('all')
    expect(storedDownloadPreset(null)).toBe('all')
  })

  it('have a name and a hint in both languages', () => {
    for (const preset of DOWNLOAD_PRESETS) {
      for (const key of Object.values(presetLabelKeys(preset))) {
        expect(lookup(en, key), `en ${key}`).toEqual(expect.any(String))
        expect(lookup(fr, key), `fr ${key}`).toEqual(expect.any(String))
      }
    }
  })

  it('end every file with the provenance columns, once', () => {
    for (const preset of DOWNLOAD_PRESETS) {
      const keys = keysOf(preset)
      expect(keys.slice(-3), preset).toEqual(PROVENANCE_KEYS)
      expect(new Set(keys).size, preset).toBe(keys.length)
    }
  })

  // Derived from the table, as the presets are: a column added to an entry lands by its entry's role.
  it('Contacts keeps every file column of the contact entries and none of the others, and no status', () => {
    const contacts = keysOf('contacts')
    for (const entry of ENRICHMENT_TABLE) {
      for (const column of entry.fileColumns) expect(contacts.includes(column.key), `${entry.key}.${column.key}`).toBe(entry.fileRole !== 'detail')
      expect(contacts).not.toContain(entry.statusColumn)
    }
    expect(contacts.slice(0, 7)).toEqual(['name', 'full_address', 'city', 'postal_code', 'country_code', 'phone', 'website'])
  })

  it('All keeps every column of every chosen entry, statuses included', () => {
    const all = keysOf('all')
    for (const entry of ENRICHMENT_TABLE) expect(all).toEqual(expect.arrayContaining([...entry.fileColumns.map((column) => column.key), entry.statusColumn]))
  })

  it('CRM import keeps only the columns with a CRM header, under it, with distinct headers', () => {
    const crm = exportColumns(ALL_OPTIONS, 'fr', 'crm')
    const withCrm = ENRICHMENT_TABLE.flatMap((entry) => entry.fileColumns.filter((column) => 'crm' in column).map((column) => column.key))
    expect(crm.map((column) => column.key)).toEqual(['name', 'full_address', 'city', 'postal_code', 'country_code', 'phone', 'website', ...withCrm, ...PROVENANCE_KEYS])
    const headers = crm.map((column) => column.header)
    expect(new Set(headers).size).toBe(headers.length)
    expect(headers).toContain('Email')
  })
})

describe('lead provenance', () => {
  it('names each source in the file language; an unknown one as stored', () => {
    expect(sourceName('osm', 'en')).toBe('OpenStreetMap')
    expect(sourceName('google', 'fr')).toBe('Google')
    expect(sourceName('demo', 'fr')).toBe('Données de démonstration')
    expect(sourceName('bench', 'en')).toBe('bench')
  })

  it('links an OSM object to its page, and nothing for an id of another shape', () => {
    expect(sourceUrl({ source: 'osm', place_id: 'node/42' })).toBe('https://www.openstreetmap.org/node/42')
    expect(sourceUrl({ source: 'osm', place_id: 'way/7' })).toBe('https://www.openstreetmap.org/way/7')
    expect(sourceUrl({ source: 'osm', place_id: 'relation/9' })).toBe('https://www.openstreetmap.org/relation/9')
    expect(sourceUrl({ source: 'osm', place_id: 'node/42/../../evil' })).toBeNull()
    expect(sourceUrl({ source: 'osm', place_id: null })).toBeNull()
  })

  it('links a Google place to its Maps URL, or to its place id', () => {
    expect(sourceUrl({ source: 'google', place_id: 'ChIJ1', google_maps_url: 'https://maps.google.com/?cid=1' })).toBe('https://maps.google.com/?cid=1')
    expect(sourceUrl({ source: 'google', place_id: 'ChIJ a&b', google_maps_url: null })).toBe('https://www.google.com/maps/place/?q=place_id:ChIJ%20a%26b')
    expect(sourceUrl({ source: 'google', place_id: null })).toBeNull()
  })

  it('has no link for demo data', () => {
    expect(sourceUrl({ source: 'demo', place_id: 'demo-1' })).toBeNull()
  })
})
