/**
 * Plausible business names for demo data: a sector's templates filled with French surnames, first names and place
 * complements ("Boulangerie Martin", "Le Fournil de Léa", "Pharmacie de la Gare").
 */
import { allCategories, getCategory } from '#app/.server/taxonomy/categories.ts'
import type { Rng } from './prng.ts'
import type { ResolvedCategory } from '../types.ts'
import {
  FIRST_NAMES,
  GENERIC_TEMPLATES,
  INTERNATIONAL_SURNAMES,
  INTERNATIONAL_TEMPLATES,
  PLACES,
  SECTORS,
  SURNAMES,
  type SectorStyle,
  slugify,
} from './vocabulary.ts'

/**
 * The built-in sector a category stands for: a taxonomy category by its exact OSM tag only (a car wash is not a
 * garage), free text by its words ("boulangerie", "plombiers", "expert comptable").
 */
export function sectorForCategory(category: ResolvedCategory): SectorStyle | undefined {
  if (category.osm) return SECTORS.find((s) => category.osm?.key === s.osm.key && category.osm.value === s.osm.value)
  const words = new Set(slugify(`${category.id} ${category.label}`).split('-'))
  const phrase = ` ${slugify(category.label).replace(/-/g, ' ')} `
  return SECTORS.find((s) => s.match.some((m) => (m.includes(' ') ? phrase.includes(` ${m} `) : words.has(m))))
}

/** Businesses in France carry French names whatever the user's language: use the taxonomy's French label. */
export function frenchLabel(category: ResolvedCategory): string {
  return getCategory(category.id)?.labels.fr ?? category.label
}

/** The label the category picker shows for a built-in sector, so "all sectors" results read like the rest. */
export function sectorLabel(sector: SectorStyle, lang: 'fr' | 'en'): string {
  const category = allCategories().find((c) => c.osm.key === sector.osm.key && c.osm.value === sector.osm.value)
  return category?.labels[lang] ?? sector.label[lang]
}

function fill(template: string, rng: Rng, label: string, surnames: readonly string[], town = ''): string {
  return template
    .replace('{town}', () => town)
    .replace('{surname}', () => rng.pick(surnames))
    .replace('{first}', () => rng.pick(FIRST_NAMES))
    .replace('{place}', () => rng.pick(PLACES))
    .replace('{label}', () => label)
}

/** French elision before a vowel: "Le Fournil de Élodie" → "Le Fournil d'Élodie". */
function elide(name: string): string {
  return name.replace(/\b([Dd])e ([AEIOUYÉÈÊÂÎÔ])/g, "$1'$2")
}

function capitalizeFirst(value: string): string {
  return value.charAt(0).toUpperCase() + value.slice(1)
}

export function businessName(rng: Rng, options: { sector?: SectorStyle; label: string; french: boolean; town?: string }): string {
  const label = capitalizeFirst(options.label.trim())
  if (!options.french) {
    // Outside France we know no local naming customs: keep to the label, a common surname and the town.
    const templates = options.town ? INTERNATIONAL_TEMPLATES : INTERNATIONAL_TEMPLATES.filter((t) => !t.includes('{town}'))
    return fill(rng.pick(templates), rng, label, INTERNATIONAL_SURNAMES, options.town)
  }
  const templates = options.sector?.templates ?? GENERIC_TEMPLATES
  return elide(fill(rng.pick(templates), rng, label, SURNAMES))
}
