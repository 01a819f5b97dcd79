/**
 * Company-name matching for registry lookups: accents, punctuation and legal-form words removed, generic activity
 * words weighing less than the distinctive part of a name, one typo forgiven per word.
 */
import { foldToAscii } from '#app/domain/text.ts'

/** Words that say what kind of company it is, not which one. */
const LEGAL_FORMS = new Set([
  'sarl', 'sas', 'sasu', 'eurl', 'sa', 'sci', 'snc', 'scs', 'sca', 'scp', 'scm', 'sel', 'selarl', 'selas', 'selafa', 'selca', 'ei', 'eirl',
  'earl', 'gaec', 'gie', 'scea', 'scop', 'scic', 'sc', 'association', 'asso', 'ste', 'societe', 'cie', 'compagnie', 'ets', 'etablissements',
  'etablissement', 'entreprise', 'groupe', 'holding', 'france', 'ltd', 'limited', 'inc', 'gmbh', 'llc', 'sprl', 'srl', 'micro', 'auto-entrepreneur',
])
const STOP_WORDS = new Set(['le', 'la', 'les', 'l', 'de', 'du', 'des', 'd', 'et', 'au', 'aux', 'a', 'en', 'chez', 'the', 'and', 'of', 'un', 'une', 'sur', 'par'])
/** Activity words shared by many businesses: they count, but much less than the distinctive part of a name. */
const GENERIC_WORDS = new Set([
  'boulangerie', 'patisserie', 'boulanger', 'patissier', 'restaurant', 'resto', 'cafe', 'bar', 'brasserie', 'bistrot', 'pizzeria', 'creperie',
  'hotel', 'garage', 'auto', 'automobiles', 'pharmacie', 'coiffure', 'coiffeur', 'salon', 'institut', 'beaute', 'boucherie', 'charcuterie',
  'traiteur', 'fleuriste', 'fleurs', 'cabinet', 'agence', 'immobilier', 'immobiliere', 'boutique', 'atelier', 'librairie', 'epicerie',
  'tabac', 'presse', 'optique', 'opticien', 'plomberie', 'plombier', 'electricite', 'electricien', 'menuiserie', 'peinture', 'taxi',
  'ambulance', 'ambulances', 'camping', 'ecole', 'dentiste', 'dentaire', 'docteur', 'medecin', 'veterinaire', 'clinique', 'notaire',
  'avocat', 'avocats', 'architecte', 'architecture', 'studio', 'services', 'service', 'conseil', 'consulting', 'transports', 'transport',
  'batiment', 'construction', 'renovation', 'maconnerie', 'couverture', 'chauffage', 'jardin', 'paysage', 'nettoyage', 'informatique',
  'maison', 'bio', 'market', 'supermarche', 'magasin', 'shop', 'store', 'centre', 'club', 'fitness', 'sport', 'sports', 'pressing',
  'laverie', 'cave', 'vins', 'fromagerie', 'poissonnerie', 'primeur', 'kebab', 'sushi', 'burger', 'snack', 'pub', 'auberge', 'gite',
  'chambres', 'hotes', 'spa', 'esthetique', 'ongles', 'barbier', 'tatouage', 'photo', 'photographe', 'bijouterie', 'horlogerie', 'cordonnerie',
  'serrurerie', 'serrurier', 'vitrerie', 'carrosserie', 'moto', 'cycles', 'velo', 'location', 'assurance', 'assurances', 'banque',
  'comptable', 'expertise', 'formation', 'creche', 'pension', 'residence', 'le', 'petit', 'grand', 'vieux', 'nouveau', 'bon', 'bonne',
])

export function normalizeCompanyName(name: string): string {
  return foldToAscii(name)
    .replace(/&/g, ' et ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
}

function tokens(name: string): string[] {
  const out: string[] = []
  for (const token of normalizeCompanyName(name).split(' ')) {
    if (!token || STOP_WORDS.has(token) || LEGAL_FORMS.has(token)) continue
    const singular = token.length > 4 && token.endsWith('s') ? token.slice(0, -1) : token
    if (!out.includes(singular)) out.push(singular)
  }
  return out
}

/** The name without spaces and legal-form words, stop words kept. */
function compact(name: string): string {
  return normalizeCompanyName(name).split(' ').filter((t) => t && !LEGAL_FORMS.has(t)).join('')
}

function weight(token: string): number {
  return GENERIC_WORDS.has(token) || GENERIC_WORDS.has(`${token}s`) ? 0.35 : 1
}

function editDistanceAtMost1(a: string, b: string): boolean {
  if (a === b) return true
  if (Math.abs(a.length - b.length) > 1) return false
  let i = 0
  let j = 0
  let edits = 0
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++
      j++
      continue
    }
    if (++edits > 1) return false
    if (a.length > b.length) i++
    else if (b.length > a.length) j++
    else {
      i++
      j++
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1
}

function tokensMatch(a: string, b: string): boolean {
  return a === b || (a.length >= 5 && b.length >= 5 && editDistanceAtMost1(a, b))
}

/** Weighted Dice over name tokens (generic activity words weigh less); 1 for the same name. */
export function nameSimilarity(a: string, b: string): number {
  const left = tokens(a)
  const right = tokens(b)
  if (left.length === 0 || right.length === 0) return 0
  const total = left.reduce((s, t) => s + weight(t), 0) + right.reduce((s, t) => s + weight(t), 0)
  let matched = 0
  const used = new Set<number>()
  for (const token of left) {
    const index = right.findIndex((other, i) => !used.has(i) && tokensMatch(token, other))
    if (index >= 0) {
      used.add(index)
      matched += weight(token) + weight(right[index] as string)
    }
  }
  let score = matched / total
  // Names written together or apart ("Le Fournil" / "LEFOURNIL").
  const compactA = compact(a)
  const compactB = compact(b)
  if (compactA.length >= 5 && compactA === compactB) score = 1
  return Math.min(1, score)
}
