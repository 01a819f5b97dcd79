/**
 * Readable labels for the registry's INSEE codes, stored beside the codes in leads.admin_fr_info:
 *
 *   NAF rév. 2 activity (activite_principale "47.24Z") → @socialgouv/codes-naf, the INSEE nomenclature
 *     (https://www.insee.fr/fr/information/2120875) as published on npm by the French social ministries' SocialGouv.
 *   Legal category (nature_juridique "5499")            → INSEE "catégories juridiques" nomenclature
 *     (https://www.insee.fr/fr/information/2028129): the level-III codes small businesses carry below, then the
 *     level-II (2 digits) and level-I (1 digit) headings for any other code.
 *   Headcount band (tranche_effectif_salarie "03")      → INSEE "tranches d'effectif salarié" (same codes in SIRENE).
 */
import codesNaf from '@socialgouv/codes-naf'

const NAF = new Map(codesNaf.map((entry) => [entry.id, entry.label]))

const LEGAL_CATEGORY: Record<string, string> = {
  '1000': 'Entrepreneur individuel',
  '2110': 'Indivision entre personnes physiques',
  '2210': 'Société créée de fait entre personnes physiques',
  '2310': 'Société en participation entre personnes physiques',
  '2385': 'Société en participation de professions libérales',
  '2900': 'Autre groupement de droit privé non doté de la personnalité morale',
  '3120': 'Société commerciale étrangère immatriculée au RCS',
  '5202': 'Société en nom collectif',
  '5306': 'Société en commandite simple',
  '5458': 'SARL coopérative ouvrière de production (SCOP)',
  '5485': "Société d'exercice libéral à responsabilité limitée",
  '5498': 'SARL unipersonnelle',
  '5499': 'Société à responsabilité limitée (sans autre indication)',
  '5599': "SA à conseil d'administration (s.a.i.)",
  '5699': 'SA à directoire (s.a.i.)',
  '5710': 'SAS, société par actions simplifiée',
  '5720': 'Société par actions simplifiée à associé unique ou société par actions simplifiée unipersonnelle',
  '5785': "Société d'exercice libéral par action simplifiée",
  '6316': "Coopérative d'utilisation de matériel agricole en commun (CUMA)",
  '6317': 'Société coopérative agricole',
  '6533': "Groupement agricole d'exploitation en commun (GAEC)",
  '6540': 'Société civile immobilière',
  '6585': 'Autre société civile professionnelle',
  '6589': 'Société civile de moyens',
  '6597': "Société civile d'exploitation agricole",
  '6598': 'Exploitation agricole à responsabilité limitée',
  '6599': 'Autre société civile',
  '9210': 'Association non déclarée',
  '9220': 'Association déclarée',
  '9230': "Association déclarée, reconnue d'utilité publique",
  '9300': 'Fondation',
}
const LEGAL_CATEGORY_LEVEL_2: Record<string, string> = {
  '10': 'Entrepreneur individuel',
  '52': 'Société en nom collectif',
  '53': 'Société en commandite',
  '54': 'Société à responsabilité limitée (SARL)',
  '55': "Société anonyme à conseil d'administration",
  '56': 'Société anonyme à directoire',
  '57': 'Société par actions simplifiée',
  '65': 'Société civile',
  '92': 'Association loi 1901 ou assimilé',
}
const LEGAL_CATEGORY_LEVEL_1: Record<string, string> = {
  '1': 'Entrepreneur individuel',
  '2': 'Groupement de droit privé non doté de la personnalité morale',
  '3': 'Personne morale de droit étranger',
  '4': 'Personne morale de droit public soumise au droit commercial',
  '5': 'Société commerciale',
  '6': 'Autre personne morale immatriculée au RCS',
  '7': 'Personne morale et organisme soumis au droit administratif',
  '8': 'Organisme privé spécialisé',
  '9': 'Groupement de droit privé',
}

const HEADCOUNT_BAND: Record<string, string> = {
  NN: 'Unité non employeuse',
  '00': '0 salarié',
  '01': '1 ou 2 salariés',
  '02': '3 à 5 salariés',
  '03': '6 à 9 salariés',
  '11': '10 à 19 salariés',
  '12': '20 à 49 salariés',
  '21': '50 à 99 salariés',
  '22': '100 à 199 salariés',
  '31': '200 à 249 salariés',
  '32': '250 à 499 salariés',
  '41': '500 à 999 salariés',
  '42': '1 000 à 1 999 salariés',
  '51': '2 000 à 4 999 salariés',
  '52': '5 000 à 9 999 salariés',
  '53': '10 000 salariés et plus',
}

/** "47.24Z" (or "4724Z") → its NAF rév. 2 label, or null. */
export function nafLabel(code: string | null): string | null {
  if (!code) return null
  const normalized = code.trim().toUpperCase().replace(/^(\d{2})\.?(\d{2}[A-Z])$/, '$1.$2')
  return NAF.get(normalized) ?? null
}

/** "5499" → "Société à responsabilité limitée (sans autre indication)", falling back to the code's headings. */
export function legalCategoryLabel(code: string | null): string | null {
  if (!code || !/^\d{4}$/.test(code)) return null
  return LEGAL_CATEGORY[code] ?? LEGAL_CATEGORY_LEVEL_2[code.slice(0, 2)] ?? LEGAL_CATEGORY_LEVEL_1[code.slice(0, 1)] ?? null
}

/** "03" → "6 à 9 salariés". */
export function headcountBandLabel(code: string | null): string | null {
  return code ? (HEADCOUNT_BAND[code] ?? null) : null
}

/** A sole trader (entreprise individuelle): its registry entry names a person. */
export function isSoleTrader(legalCategory: string | null): boolean {
  return legalCategory?.startsWith('1') ?? false
}
