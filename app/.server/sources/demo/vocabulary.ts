/**
 * Word lists for demo businesses: French surnames and first names, "place" complements, street names, and per-sector
 * name templates. Everything here is ASCII-recoverable through {@link prettifySlugName}, so a demo website can show
 * the exact business name from its URL slug alone.
 */

import { allCategories } from '#app/.server/taxonomy/categories.ts'
import { foldToAscii } from '#app/domain/text.ts'

export const SURNAMES = [
  'Martin', 'Bernard', 'Dubois', 'Thomas', 'Robert', 'Richard', 'Petit', 'Durand', 'Leroy', 'Moreau', 'Simon',
  'Laurent', 'Lefebvre', 'Michel', 'Garcia', 'David', 'Bertrand', 'Roux', 'Vincent', 'Fournier', 'Morel', 'Girard',
  'André', 'Mercier', 'Dupont', 'Lambert', 'Bonnet', 'François', 'Martinez', 'Legrand', 'Garnier', 'Faure',
  'Rousseau', 'Blanc', 'Guérin', 'Muller', 'Henry', 'Roussel', 'Nicolas', 'Perrin', 'Morin', 'Mathieu', 'Clément',
  'Gauthier', 'Dumont', 'Lopez', 'Fontaine', 'Chevalier', 'Robin', 'Masson', 'Sanchez', 'Gérard', 'Nguyen', 'Boyer',
  'Denis', 'Lemaire', 'Duval', 'Joly', 'Roger', 'Roche', 'Roy', 'Noël', 'Meyer', 'Lucas', 'Meunier', 'Perez',
  'Marchand', 'Dufour', 'Blanchard', 'Barbier', 'Brun', 'Dumas', 'Brunet', 'Schmitt', 'Leroux', 'Colin',
  'Fernandez', 'Renard', 'Arnaud', 'Rolland', 'Caron', 'Aubert', 'Giraud', 'Leclerc', 'Vidal', 'Bourgeois', 'Renaud',
  'Lemoine', 'Picard', 'Gaillard', 'Philippe', 'Lacroix', 'Fabre', 'Dupuis', 'Olivier', 'Hubert', 'Guillot',
  'Rivière', 'Guillaume', 'Adam', 'Rey', 'Moulin', 'Berger', 'Lecomte', 'Ménard', 'Fleury', 'Deschamps',
  'Carpentier', 'Julien', 'Benoît', 'Maillard', 'Marchal', 'Aubry', 'Vasseur', 'Renault', 'Jacquet', 'Collet',
  'Prévost', 'Poirier', 'Charpentier', 'Royer', 'Huet', 'Baron', 'Dupuy', 'Pons', 'Carré', 'Breton', 'Perrot',
  'Guyot', 'Marty', 'Cousin', 'Bailly', 'Hervé', 'Lebrun', 'Tessier', 'Besson', 'Germain', 'Leblanc', 'Langlois',
] as const

export const FIRST_NAMES = [
  'Léa', 'Chloé', 'Manon', 'Camille', 'Sophie', 'Julie', 'Claire', 'Émilie', 'Nicolas', 'Julien', 'Thomas',
  'Antoine', 'Maxime', 'Pierre', 'Lucas', 'Hugo', 'Louis', 'Paul', 'Marie', 'Anne', 'Isabelle', 'Nathalie', 'Céline',
  'Sandrine', 'Stéphane', 'Christophe', 'Olivier', 'Sébastien', 'Laurent', 'Éric', 'Franck', 'Jérôme', 'Mathilde',
  'Pauline', 'Inès', 'Zoé', 'Jade', 'Louise', 'Alice', 'Margaux', 'Élodie', 'Aurélie', 'Karine', 'Romain', 'Benoît',
] as const

export const PLACES = [
  'du Centre', 'de la Gare', 'du Marché', 'de la Place', 'du Port', 'des Halles', 'du Château', "de l'Église",
  'du Parc', 'des Lilas', 'du Moulin', 'de la Fontaine', 'du Soleil', 'des Arts', 'du Théâtre', 'de la Poste',
  'du Pont', 'des Remparts', 'du Lac', 'de la Mairie', 'des Tilleuls', 'du Vieux Bourg',
] as const

export const STREETS = [
  'rue de la République', 'avenue Jean Jaurès', 'rue Victor Hugo', 'place de la Mairie', 'boulevard Gambetta',
  'rue du Général de Gaulle', 'rue Nationale', 'rue de la Paix', 'avenue de la Gare', 'rue Pasteur', 'rue des Écoles',
  'rue du Moulin', "rue de l'Église", 'rue Voltaire', 'rue Émile Zola', 'rue Jules Ferry', 'rue Carnot', 'avenue Foch',
  'rue de la Liberté', 'rue du Marché', 'quai du Port', 'impasse des Lilas', 'chemin des Vignes',
  'rue Principale', 'Grande Rue', 'place du Marché', 'rue Saint-Jacques', 'boulevard Voltaire', 'rue Paul Bert',
  'avenue de la Libération', 'rue Jean Moulin', 'rue des Fleurs', 'allée des Platanes', 'rue de Verdun',
] as const

/** Generic given names for demo businesses outside France, where we know no local naming customs. */
export const INTERNATIONAL_SURNAMES = [
  'Smith', 'Müller', 'Rossi', 'García', 'Schmidt', 'Jansen', 'Novak', 'Silva', 'Kowalski', 'Andersen', 'Costa',
  'Weber', 'Ferrari', 'Santos', 'Peeters', 'Horvat', 'Nielsen', 'Fischer', 'Romano', 'Moreno',
] as const

/** One sector of the built-in list: names for "all sectors" searches and naming style for known categories. */
export interface SectorStyle {
  key: string
  label: { fr: string; en: string }
  osm: { key: string; value: string }
  googleType: string
  /** Tokens (accent-free, lower case) that identify this sector in an OSM value, Google type, id or free label. */
  match: string[]
  templates: string[]
  /** OSM opening_hours strings typical of the sector. */
  hours: string[]
  /** Sites of shops are more often e-commerce platforms. */
  isShop: boolean
}

const SHOP_HOURS = ['Mo-Sa 09:30-19:00', 'Tu-Sa 10:00-19:00', 'Mo-Fr 09:00-12:30,14:00-19:00; Sa 09:00-18:00']
const FOOD_HOURS = ['Tu-Sa 07:00-19:30; Su 07:00-13:00', 'Mo-Sa 06:30-20:00', 'We-Mo 07:00-13:30,15:30-19:30']
const MEAL_HOURS = ['Tu-Sa 12:00-14:00,19:00-22:30', 'Mo-Fr 11:45-14:30; Th-Sa 19:00-23:00', 'Mo-Su 12:00-14:30,19:00-23:00']
const OFFICE_HOURS = ['Mo-Fr 09:00-12:30,14:00-18:00', 'Mo-Fr 08:30-18:30', 'Mo-Th 09:00-18:00; Fr 09:00-17:00']
const CRAFT_HOURS = ['Mo-Fr 08:00-18:00', 'Mo-Fr 07:30-12:00,13:30-17:30']

function sector(
  key: string, fr: string, en: string, osm: string, googleType: string, match: string[], templates: string[], hours: string[], isShop = false,
): SectorStyle {
  const [osmKey, osmValue] = osm.split('=') as [string, string]
  return { key, label: { fr, en }, osm: { key: osmKey, value: osmValue }, googleType, match, templates, hours, isShop }
}

export const SECTORS: SectorStyle[] = [
  sector('bakery', 'Boulangerie', 'Bakery', 'shop=bakery', 'bakery', ['bakery', 'boulangerie', 'boulangeries', 'patisserie', 'boulanger'],
    ['Boulangerie {surname}', 'Boulangerie {place}', 'Le Fournil de {first}', 'Le Petit Fournil', 'Au Pain Doré', 'Maison {surname}', 'Aux Délices de {first}', 'Boulangerie Pâtisserie {surname}'], FOOD_HOURS, true),
  sector('restaurant', 'Restaurant', 'Restaurant', 'amenity=restaurant', 'restaurant', ['restaurant', 'restaurants', 'restauration'],
    ['Restaurant {surname}', 'Le Bistrot {place}', 'Chez {first}', 'La Table de {first}', "L'Auberge {place}", 'Le Comptoir {place}', 'Brasserie {place}', 'Le Relais {place}'], MEAL_HOURS),
  sector('cafe', 'Café', 'Café', 'amenity=cafe', 'cafe', ['cafe', 'cafes', 'coffee', 'salon de the'],
    ['Café {place}', 'Le Café des Arts', 'Café {surname}', 'Les Gourmandises de {first}'], FOOD_HOURS),
  sector('bar', 'Bar', 'Bar', 'amenity=bar', 'bar', ['bar', 'bars', 'pub'],
    ['Le Bar {place}', 'Bar Tabac {place}', 'Le Comptoir de {first}', 'Le Zinc {place}'], ['Mo-Sa 07:00-01:00', 'Tu-Su 17:00-02:00']),
  sector('hairdresser', 'Coiffeur', 'Hairdresser', 'shop=hairdresser', 'hair_salon', ['hairdresser', 'coiffeur', 'coiffeurs', 'coiffure', 'hair'],
    ['Salon {first}', 'Coiffure {surname}', "L'Atelier de {first}", '{first} Coiffure', 'Studio Coiffure {place}'], SHOP_HOURS),
  sector('beauty', 'Institut de beauté', 'Beauty salon', 'shop=beauty', 'beauty_salon', ['beauty', 'beaute', 'esthetique', 'estheticienne'],
    ['Institut {first}', 'Institut de Beauté {place}', 'Beauté {place}', "L'Instant Beauté"], SHOP_HOURS),
  sector('butcher', 'Boucherie', 'Butcher', 'shop=butcher', 'butcher_shop', ['butcher', 'boucherie', 'boucher', 'charcuterie'],
    ['Boucherie {surname}', 'Boucherie {place}', 'Boucherie Charcuterie {surname}', 'Maison {surname}'], FOOD_HOURS, true),
  sector('pharmacy', 'Pharmacie', 'Pharmacy', 'amenity=pharmacy', 'pharmacy', ['pharmacy', 'pharmacie', 'pharmacies', 'chemist'],
    ['Pharmacie {place}', 'Pharmacie {surname}', 'Grande Pharmacie {place}'], SHOP_HOURS),
  sector('florist', 'Fleuriste', 'Florist', 'shop=florist', 'florist', ['florist', 'fleuriste', 'fleuristes', 'fleurs'],
    ['Fleurs {first}', '{first} Fleurs', "L'Atelier Floral", 'Au Jardin de {first}', 'Les Fleurs {place}'], SHOP_HOURS, true),
  sector('car_repair', 'Garage automobile', 'Car repair', 'shop=car_repair', 'car_repair', ['car', 'garage', 'garagiste', 'mecanique', 'automobile'],
    ['Garage {surname}', 'Garage {place}', 'Auto Services {surname}', '{surname} Automobiles'], CRAFT_HOURS),
  sector('plumber', 'Plombier', 'Plumber', 'craft=plumber', 'plumber', ['plumber', 'plombier', 'plombiers', 'plomberie'],
    ['{surname} Plomberie', 'Plomberie {surname}', 'SARL {surname} Plomberie Chauffage'], CRAFT_HOURS),
  sector('electrician', 'Électricien', 'Electrician', 'craft=electrician', 'electrician', ['electrician', 'electricien', 'electriciens', 'electricite'],
    ['{surname} Électricité', 'Électricité Générale {surname}', 'SARL {surname} Électricité'], CRAFT_HOURS),
  sector('estate_agent', 'Agence immobilière', 'Real estate agency', 'office=estate_agent', 'real_estate_agency', ['estate', 'immobilier', 'immobiliere', 'realty'],
    ['{surname} Immobilier', 'Agence {place}', 'Cabinet {surname} Immobilier', 'Immobilier {place}'], OFFICE_HOURS),
  sector('optician', 'Opticien', 'Optician', 'shop=optician', 'store', ['optician', 'opticien', 'opticiens', 'optique'],
    ['Optique {surname}', 'Optique {place}', "L'Atelier des Lunettes"], SHOP_HOURS, true),
  sector('books', 'Librairie', 'Bookshop', 'shop=books', 'book_store', ['books', 'bookshop', 'bookstore', 'librairie', 'librairies'],
    ['Librairie {surname}', 'Librairie {place}', 'Librairie des Arts', 'Au Fil des Pages'], SHOP_HOURS, true),
  sector('clothes', 'Magasin de vêtements', 'Clothing store', 'shop=clothes', 'clothing_store', ['clothes', 'clothing', 'vetements', 'boutique', 'mode'],
    ['Boutique {first}', 'Maison {surname}', 'Boutique {place}', 'Les Petites Mains'], SHOP_HOURS, true),
  sector('dentist', 'Dentiste', 'Dentist', 'amenity=dentist', 'dentist', ['dentist', 'dentiste', 'dentistes', 'dentaire'],
    ['Cabinet Dentaire {place}', 'Cabinet Dentaire {surname}', 'Dr {first} {surname}'], OFFICE_HOURS),
  sector('lawyer', 'Avocat', 'Lawyer', 'office=lawyer', 'lawyer', ['lawyer', 'avocat', 'avocats', 'juridique'],
    ['Cabinet {surname}', 'Maître {first} {surname}', '{surname} Avocats', '{surname} et Associés'], OFFICE_HOURS),
  sector('accountant', 'Expert-comptable', 'Accountant', 'office=accountant', 'accounting', ['accountant', 'accounting', 'comptable', 'comptabilite', 'expert comptable'],
    ['Cabinet {surname}', '{surname} Expertise Comptable', 'Fiduciaire {place}'], OFFICE_HOURS),
  sector('hotel', 'Hôtel', 'Hotel', 'tourism=hotel', 'hotel', ['hotel', 'hotels', 'hotellerie'],
    ['Hôtel {place}', 'Hôtel {surname}', 'Hôtel des Arts', 'Le Relais {place}'], ['24/7']),
  sector('grocery', 'Épicerie', 'Grocery', 'shop=convenience', 'grocery_store', ['convenience', 'grocery', 'epicerie', 'supermarket', 'alimentation'],
    ['Épicerie {place}', 'Épicerie Fine {surname}', 'Au Panier {place}'], FOOD_HOURS, true),
  sector('cheese', 'Fromagerie', 'Cheese shop', 'shop=cheese', 'store', ['cheese', 'fromagerie', 'fromager'],
    ['Fromagerie {surname}', 'Fromagerie {place}', 'Les Fromages de {first}'], FOOD_HOURS, true),
  sector('wine', 'Caviste', 'Wine shop', 'shop=wine', 'liquor_store', ['wine', 'caviste', 'cave', 'vins'],
    ['Cave {surname}', 'La Cave {place}', 'Les Vins de {first}'], SHOP_HOURS, true),
  sector('fitness', 'Salle de sport', 'Gym', 'leisure=fitness_centre', 'gym', ['fitness', 'gym', 'sport', 'musculation'],
    ['Salle {place}', '{surname} Fitness', 'Studio {first}'], ['Mo-Fr 06:30-22:00; Sa,Su 09:00-19:00']),
  sector('veterinary', 'Vétérinaire', 'Veterinarian', 'amenity=veterinary', 'veterinary_care', ['veterinary', 'veterinaire', 'veterinaires', 'vet'],
    ['Clinique Vétérinaire {place}', 'Cabinet Vétérinaire {surname}'], OFFICE_HOURS),
  sector('architect', 'Architecte', 'Architect', 'office=architect', 'architect', ['architect', 'architecte', 'architectes', 'architecture'],
    ['Atelier {surname} Architecture', 'Cabinet {surname} Architectes'], OFFICE_HOURS),
]

/** Fallback templates for categories we know nothing about (free text): built around the label itself. */
export const GENERIC_TEMPLATES = ['{label} {surname}', '{label} {place}', '{surname} {label}', '{label} {first} {surname}']
export const INTERNATIONAL_TEMPLATES = ['{label} {surname}', '{surname} {label}', '{town} {label}', '{label} {town}']

/** URL-safe, accent-free, lower case: "L'Atelier de Léa" → "l-atelier-de-lea". */
export function slugify(value: string): string {
  return foldToAscii(value)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}

/** Words kept lower case inside a name. */
const PARTICLES = new Set(['de', 'du', 'des', 'la', 'le', 'les', 'et', 'au', 'aux', 'sur', 'en', 'pour'])

let displayWords: Map<string, string> | undefined

/** ascii token → its written form in our vocabulary ("eglise" → "Église"). */
function vocabulary(): Map<string, string> {
  if (displayWords) return displayWords
  displayWords = new Map()
  // Taxonomy labels too: names built around a category label ("Pension animalière Martin") come back exact.
  const taxonomy = allCategories().map((c) => c.labels.fr)
  const phrases = [...SURNAMES, ...FIRST_NAMES, ...PLACES, ...SECTORS.flatMap((s) => s.templates), ...SECTORS.map((s) => s.label.fr), ...taxonomy]
  for (const phrase of phrases) {
    for (const word of phrase.replace(/\{[a-z]+\}/g, ' ').split(/[\s'-]+/)) {
      const token = slugify(word)
      if (token.length > 1 && !PARTICLES.has(token) && !displayWords.has(token)) displayWords.set(token, word)
    }
  }
  return displayWords
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1)
}

/**
 * Rebuilds a display name from its slug: vocabulary words get their accents back, particles stay lower case, "l"/"d"
 * become elisions. Exact for names made from our templates; free-text labels come back capitalised without accents.
 */
export function prettifySlugName(slug: string): string {
  const tokens = slug.split('-').filter(Boolean)
  let out = ''
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string
    const first = i === 0
    if ((token === 'l' || token === 'd') && i < tokens.length - 1) {
      out += `${out ? ' ' : ''}${first ? token.toUpperCase() : token}'`
      const next = tokens[++i] as string
      out += vocabulary().get(next) ?? capitalize(next)
      continue
    }
    const word = PARTICLES.has(token) ? (first ? capitalize(token) : token) : (vocabulary().get(token) ?? capitalize(token))
    out += `${out ? ' ' : ''}${word}`
  }
  return out
}
