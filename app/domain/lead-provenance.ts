// Where each lead comes from, written in every downloaded file: the French data-protection authority (CNIL)
// expects prospecting files to name the source of each piece of data. Pure.
import type { FileLabel } from './file-language.ts'

const SOURCE_NAMES: Readonly<Record<string, FileLabel>> = {
  osm: { en: 'OpenStreetMap', fr: 'OpenStreetMap' },
  google: { en: 'Google', fr: 'Google' },
  demo: { en: 'Demo data', fr: 'Données de démonstration' },
  // A row of the user's own list the map does not know: its website, or nothing found.
  list: { en: 'Your list', fr: 'Votre liste' },
}

/** The name of a lead's source ("osm" -> "OpenStreetMap"); an unknown one as stored. */
export function sourceName(source: string, lang: keyof FileLabel): string {
  return SOURCE_NAMES[source]?.[lang] ?? source
}

// OSM ids are "<node|way|relation>/<number>" (app/.server/sources/osm-mapping.ts).
const OSM_OBJECT = /^(node|way|relation)\/(\d+)$/

/**
 * The page of the lead at its source, or null when it has none (demo data, an id of an unexpected shape):
 * the OSM object's page, or for Google the lead's Maps URL, else the Maps link of its place id.
 */
export function sourceUrl(lead: { source: string; place_id: string | null; google_maps_url?: string | null }): string | null {
  const id = lead.place_id
  if (lead.source === 'osm') {
    const match = id ? OSM_OBJECT.exec(id) : null
    return match ? `https://www.openstreetmap.org/${match[1]}/${match[2]}` : null
  }
  if (lead.source === 'google') {
    if (lead.google_maps_url) return lead.google_maps_url
    return id ? `https://www.google.com/maps/place/?q=place_id:${encodeURIComponent(id)}` : null
  }
  return null
}
