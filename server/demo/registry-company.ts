/**
 * The demo registry's company (recherche-entreprises `results[]` shape) for a name, a postcode and a seed: shared by
 * the demo registry's answers (registry.ts), its universe (registry-universe.ts) and its event history
 * (registry-events-history.ts), so a company reads the same whichever way it is found.
 */
import { hashString, Rng } from '#app/.server/sources/demo/prng.ts'
import { completeLuhn } from '#app/.server/sources/demo/identity.ts'
import { foldToAscii } from '#app/domain/text.ts'
import { cityName, franceData } from '#app/.server/geo/france.ts'
import type { MakeCompany } from './registry-universe.ts'

export const LEGAL_FORMS = [
  ['5499', 'Société à responsabilité limitée (sans autre indication)', 'SARL'],
  ['5710', 'SAS, société par actions simplifiée', 'SAS'],
  ['5498', 'SARL unipersonnelle', 'EURL'],
  ['1000', 'Entrepreneur individuel', 'EI'],
] as const
const SIZE_BANDS = ['NN', '00', '01', '02', '03', '11', '12'] as const
/** Registered names rarely equal the sign: the demo adds one of these, so a name alone scores below 1. */
const NAME_SUFFIXES = ['ET FILS', 'FRERES', 'ET ASSOCIES', 'DEVELOPPEMENT'] as const
const FIRST_NAMES = ['MARIE', 'JEAN', 'PIERRE', 'SOPHIE', 'NICOLAS', 'JULIE', 'THOMAS', 'CAMILLE', 'LUC', 'EMMA']
const SURNAMES = ['MARTIN', 'BERNARD', 'DUBOIS', 'THOMAS', 'ROBERT', 'RICHARD', 'PETIT', 'DURAND', 'LEROY', 'MOREAU']

export function normalize(text: string): string {
  return foldToAscii(text)
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim()
}

export interface Company {
  [key: string]: unknown
}

/** The commune a postcode belongs to (the most populous one when several share it), as the registry names it. */
function communeOf(postalCode: string): { code: string; name: string } | null {
  if (!communesByPostcode.has(postalCode)) {
    const commune = franceData().communes.find((c) => c.codesPostaux.includes(postalCode))
    communesByPostcode.set(postalCode, commune ? { code: commune.code, name: cityName(commune).toUpperCase() } : null)
  }
  return communesByPostcode.get(postalCode) ?? null
}

/** Postcodes already looked up (a scan of every commune each time would dominate the event history's cost). */
const communesByPostcode = new Map<string, { code: string; name: string } | null>()

/** Up to this many metres between the demo map's position and the registry's geocoding of the same business. */
const GEOCODING_ERROR_METRES = 30

/** The registry's coordinates (decimal strings, as recherche-entreprises sends them), a few metres off the map's. */
function geocoded(rng: Rng, position: { latitude: number; longitude: number } | undefined) {
  if (!position) return { latitude: null, longitude: null }
  const metres = () => (rng.next() * 2 - 1) * GEOCODING_ERROR_METRES * Math.SQRT1_2
  const latitude = position.latitude + metres() / 111_195
  const longitude = position.longitude + metres() / (111_195 * Math.cos((position.latitude * Math.PI) / 180))
  return { latitude: latitude.toFixed(6), longitude: longitude.toFixed(6) }
}

/** About one company in twenty is closed (cessée), by its seed: the event history radiates some of them. */
function isClosedSeed(seed: number): boolean {
  return Math.floor(seed / 10) % 20 === 7
}

export function makeCompany(options: Parameters<MakeCompany>[0]): Company {
  const rng = new Rng(options.seed)
  const siren = options.siret?.slice(0, 9) ?? completeLuhn(`${rng.int(3, 9)}${String(rng.int(0, 9_999_999)).padStart(7, '0')}`)
  const siret = options.siret && options.siret.length === 14 ? options.siret : completeLuhn(`${siren}000${rng.int(1, 9)}`)
  const [code, label, short] = rng.pick(LEGAL_FORMS)
  const drawnFounding = `${rng.int(1965, 2022)}-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`
  // A company of the event history's creations (registry-events-history.ts) was founded that day and runs; the draw
  // above still happens so every other field stays what it was.
  const founded = options.createdOn ?? drawnFounding
  const postalCode = options.postalCode ?? '75001'
  const naf = options.naf ?? rng.pick(['47.24Z', '56.10A', '96.02A', '43.21A', '47.11B', '86.23Z'])
  const asked = normalize(options.name)
  const name = asked ? `${asked} ${rng.pick(NAME_SUFFIXES)}` : `ENTREPRISE ${siren}`
  const year = rng.int(2021, 2023)
  const street = `${rng.int(1, 80)} RUE ${rng.pick(['DE LA REPUBLIQUE', 'VICTOR HUGO', 'JEAN JAURES', 'DU COMMERCE', 'PASTEUR'])}`
  const commune = communeOf(postalCode)
  // As the API: a closed business's legal unit is C (cessée), its establishments F (fermé).
  const closed = !options.createdOn && (options.closed === true || isClosedSeed(options.seed))
  const state = closed ? 'C' : 'A'
  const placeState = closed ? 'F' : 'A'
  const coordinates = geocoded(new Rng(hashString(`geocoding|${options.seed}`)), options.position)
  return {
    demo: true,
    siren,
    nom_complet: short === 'EI' ? name : `${name} (${short})`,
    nom_raison_sociale: short === 'EI' ? null : name,
    sigle: null,
    nombre_etablissements: 1,
    nombre_etablissements_ouverts: 1,
    activite_principale: naf,
    categorie_entreprise: 'PME',
    date_creation: founded,
    etat_administratif: state,
    statut_diffusion: 'O',
    nature_juridique: code,
    libelle_nature_juridique: label,
    tranche_effectif_salarie: rng.pick(SIZE_BANDS),
    siege: {
      siret,
      est_siege: true,
      activite_principale: naf,
      adresse: `${street} ${postalCode}${commune ? ` ${commune.name}` : ''}`,
      code_postal: postalCode,
      commune: commune?.code ?? null,
      libelle_commune: commune?.name ?? null,
      date_creation: founded,
      etat_administratif: placeState,
      liste_enseignes: null,
      nom_commercial: null,
      ...coordinates,
    },
    // A sole trader is the person: the registry lists no director for it.
    dirigeants: short === 'EI' ? [] : [{ nom: rng.pick(SURNAMES), prenoms: rng.pick(FIRST_NAMES), qualite: short === 'SAS' ? 'Président' : 'Gérant', type_dirigeant: 'personne physique' }],
    finances: options.createdOn ? {} : { [String(year)]: { ca: rng.int(80, 4_000) * 1000, resultat_net: rng.int(-50, 400) * 1000 } },
    complements: { est_entrepreneur_individuel: short === 'EI' },
    matching_etablissements: [{ siret, code_postal: postalCode, libelle_commune: commune?.name ?? null, est_siege: true, etat_administratif: placeState, ...coordinates }],
  }
}
