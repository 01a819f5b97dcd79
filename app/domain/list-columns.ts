/**
 * "Enrich your own list": what the columns of a user's file of companies hold, and what each of its rows gives to
 * match a company by. Users bring what they have — a CRM export, a sheet typed by hand, a registry extract — so the
 * columns are guessed from their headers (French and English, accents, case and punctuation ignored) or, with a
 * header that says nothing, from their values; the user confirms the mapping (ListMappingSchema) and every row is
 * read into canonical identifiers (rowToListInput) or reported with why it cannot be matched.
 * Pure and light (no phone parsing): the mapping step runs in the browser too; app/.server/lists/ reads the file,
 * normalises phones and dedupes.
 */
import { z } from 'zod'
import { isValidSiren, isValidSiret } from './company-ids.ts'
import { foldToAscii, normalizeForSearch } from './text.ts'
import { websiteDomain } from './website-domain.ts'

export const LIST_COLUMN_KINDS = ['name', 'website', 'siren', 'siret', 'address', 'postal_code', 'city', 'phone', 'email', 'country', 'ignore'] as const
export type ListColumnKind = (typeof LIST_COLUMN_KINDS)[number]

/** A list is matched row by row against the registry: the cap keeps one import's work bounded. */
export const LIST_MAX_ROWS = 50_000
/** Far above what 50 000 rows of company data weigh as CSV (~10 MB); the upload is refused above it. */
export const LIST_MAX_FILE_BYTES = 30 * 1024 * 1024
/** More columns than any export we know: a mapping form past it is not a list of companies. */
const LIST_MAX_COLUMNS = 1000

/** Why a file is refused as a whole (nothing of it is imported); the UI localizes each code. */
export const LIST_FILE_REFUSALS = ['too_many_rows', 'binary', 'empty', 'unreadable_xlsx', 'too_large', 'zip_bomb', 'no_header', 'unsupported_encoding'] as const
export type ListFileRefusalCode = (typeof LIST_FILE_REFUSALS)[number]

// ---------------------------------------------------------------------------------------------------------------
// Guessing the columns

/** "Nom de l'entreprise" → "nom de l entreprise", "companyDomain" → "company domain", "Tél." → "tel". */
function headerKey(header: string): string {
  return foldToAscii(header.replace(/([a-z])([A-Z])/g, '$1 $2'))
    .replace(/[^a-z\d]+/g, ' ')
    .trim()
}

type Guessable = ListColumnKind

/** Whole headers, as headerKey writes them. An 'ignore' entry is a column known to hold something else (a person, a fax). */
const EXACT_HEADERS: Record<Guessable, readonly string[]> = {
  name: [
    'raison sociale', 'raison soc', 'denomination', 'denomination sociale', 'nom de l entreprise', 'nom entreprise', 'nom de la societe',
    'nom societe', 'nom de l etablissement', 'societe', 'entreprise', 'etablissement', 'nom commercial', 'enseigne', 'company', 'company name',
    'business name', 'organization', 'organisation', 'organization name', 'account name', 'legal name', 'nom du client', 'nom client',
  ],
  website: [
    'site web', 'site internet', 'website', 'web site', 'url', 'domaine', 'domain', 'nom de domaine', 'domain name', 'company domain',
    'company domain name', 'website url', 'company website', 'site url', 'url du site', 'adresse du site', 'www',
  ],
  siren: ['siren', 'n siren', 'no siren', 'num siren', 'numero siren', 'numero de siren', 'code siren', 'siren number'],
  siret: ['siret', 'n siret', 'no siret', 'num siret', 'numero siret', 'numero de siret', 'code siret', 'siret number', 'siret du siege', 'siren siret', 'siret siren'],
  address: [
    'adresse', 'address', 'adresse postale', 'rue', 'street', 'street address', 'adresse 1', 'adresse ligne 1', 'address 1', 'address line 1',
    'voie', 'numero et voie', 'adresse complete', 'adresse du siege', 'billing street', 'mailing street',
  ],
  postal_code: ['code postal', 'cp', 'postal code', 'postcode', 'post code', 'zip', 'zip code', 'zipcode', 'billing postal code', 'mailing zip'],
  city: ['ville', 'city', 'commune', 'localite', 'town', 'municipality', 'billing city', 'mailing city'],
  phone: ['telephone', 'tel', 'phone', 'phone number', 'numero de telephone', 'telephone fixe', 'tel fixe', 'telephone standard', 'company phone', 'work phone'],
  email: [
    'email', 'e mail', 'mail', 'courriel', 'adresse email', 'adresse e mail', 'adresse mail', 'adresse courriel', 'adresse electronique',
    'email address', 'e mail address', 'contact email', 'email professionnel',
  ],
  country: ['pays', 'country', 'code pays', 'country code', 'pays iso', 'billing country'],
  ignore: [
    'prenom', 'first name', 'firstname', 'last name', 'lastname', 'nom de famille', 'nom du contact', 'contact name', 'civilite',
    'fonction', 'poste', 'title', 'job title', 'fax', 'id', 'notes', 'note', 'commentaire', 'commentaires', 'date', 'code naf', 'naf', 'ape',
    'code ape', 'tva', 'numero de tva', 'tva intracommunautaire', 'vat', 'vat number', 'effectif', 'capital', 'code insee', 'code commune',
    'departement', 'region', 'adresse 2', 'adresse ligne 2', 'address 2', 'address line 2', 'complement d adresse', 'complement adresse',
  ],
}

/** Headers that name their kind only when nothing more precise does ("Nom" is a surname beside "Prénom"). */
const GENERIC_KIND = new Map<string, Guessable>([
  ['nom', 'name'], ['name', 'name'], ['client', 'name'], ['site', 'website'], ['web', 'website'], ['mobile', 'phone'], ['portable', 'phone'], ['standard', 'phone'],
])
/** Headers of a sheet of people, beside which "Nom" / "Name" is the person's. */
const PERSON_HEADERS = new Set(['prenom', 'first name', 'firstname'])

/**
 * Words of a header, in the order they are tried: "Adresse e-mail" is an email, "Nom de domaine" a website,
 * "Company phone" a phone, "Code pays" a country. Words of the first line mark columns that hold something else.
 */
const HEADER_WORDS: ReadonlyArray<readonly [Guessable, readonly string[]]> = [
  ['ignore', ['fax', 'linkedin', 'facebook', 'instagram', 'twitter', 'prenom', 'first name', 'last name', 'tva', 'vat', 'naf', 'ape', 'insee', 'capital', 'effectif', 'chiffre d affaires', 'code commune']],
  ['email', ['email', 'e mail', 'mail', 'courriel', 'emails']],
  ['siret', ['siret']],
  ['siren', ['siren']],
  ['website', ['site', 'website', 'web', 'url', 'domaine', 'domain', 'www']],
  ['phone', ['telephone', 'tel', 'phone', 'mobile', 'portable', 'gsm']],
  ['postal_code', ['code postal', 'postal code', 'postcode', 'zip', 'zipcode', 'cp']],
  ['country', ['pays', 'country']],
  ['city', ['ville', 'city', 'commune', 'localite', 'town']],
  ['address', ['adresse', 'address', 'rue', 'street', 'voie']],
  ['name', ['raison sociale', 'societe', 'entreprise', 'company', 'denomination', 'enseigne', 'etablissement', 'organisation', 'organization', 'business', 'nom', 'name', 'client']],
]

/** Words that make "Nom …" / "… name" a person's or a thing's name, not the company's. */
const NOT_COMPANY_WORDS = ['contact', 'dirigeant', 'gerant', 'interlocuteur', 'responsable', 'representant', 'user', 'utilisateur', 'fichier', 'file', 'produit', 'product', 'campagne', 'campaign', 'famille']

const EXACT_KIND = new Map(Object.entries(EXACT_HEADERS).flatMap(([kind, keys]) => keys.map((key) => [key, kind as Guessable])))

const hasPhrase = (key: string, phrase: string) => ` ${key} `.includes(` ${phrase} `)

/** How sure a guess is: a whole known header, a generic one, a known word in it, then values (1–2). */
const SCORE = { exact: 4, generic: 3.5, word: 3 } as const

interface Guess {
  column: number
  kind: Guessable
  score: number
}

function headerGuess(header: string, column: number, sheetOfPeople: boolean): Guess | null {
  const key = headerKey(header)
  if (!key) return null
  const exact = EXACT_KIND.get(key)
  if (exact) return { column, kind: exact, score: SCORE.exact }
  const generic = GENERIC_KIND.get(key)
  if (generic) return { column, kind: sheetOfPeople && generic === 'name' ? 'ignore' : generic, score: SCORE.generic }
  for (const [kind, phrases] of HEADER_WORDS) {
    if (!phrases.some((phrase) => hasPhrase(key, phrase))) continue
    if (kind === 'name' && NOT_COMPANY_WORDS.some((word) => hasPhrase(key, word))) return { column, kind: 'ignore', score: SCORE.word }
    return { column, kind, score: SCORE.word }
  }
  return null
}

const EMAIL_RE = /^[^\s@<>()[\],;:"]+@(?:[a-z\d](?:[a-z\d-]{0,61}[a-z\d])?\.)+[a-z][a-z\d-]{1,62}$/i
const URL_LIKE_RE = /^(?:https?:\/\/)?(?:www\.)?[a-z\d-]+(?:\.[a-z\d-]+)*\.[a-z]{2,}(?:[/?#]\S*)?$/i
const ADDRESS_RE = /\d.*\b(?:rue|avenue|av|bd|boulevard|chemin|place|allee|impasse|route|quai|cours|street|road)\b/
const COUNTRY_VALUES = new Set([
  'france', 'fr', 'fra', 'belgique', 'belgium', 'be', 'suisse', 'switzerland', 'ch', 'luxembourg', 'lu', 'monaco', 'mc', 'espagne', 'spain',
  'allemagne', 'germany', 'italie', 'italy', 'royaume uni', 'united kingdom', 'uk', 'gb', 'canada', 'portugal', 'pays bas', 'netherlands',
])

/** What one value looks like, or null when it could be anything (a name, a city). */
function valueKind(value: string): Guessable | null {
  const compact = value.replace(/[\s.]/g, '')
  // Check digits tell a SIREN from a mobile number a spreadsheet stored without its 0 ("612345678").
  if (/^\d{14}$/.test(compact)) return isValidSiret(compact) ? 'siret' : null
  if (/^\d{9}$/.test(compact) && isValidSiren(compact)) return 'siren'
  if (/^\d{5}$/.test(compact)) return 'postal_code'
  if (/^(?:\+|00)?[\d\s().-]+$/.test(value) && /^(?:\+|0)/.test(value)) {
    const digits = value.replace(/\D/g, '').length
    if (digits >= 9 && digits <= 15) return 'phone'
  }
  if (EMAIL_RE.test(value.replace(/^mailto:/i, ''))) return 'email'
  if (URL_LIKE_RE.test(value)) return 'website'
  const folded = normalizeForSearch(value)
  if (COUNTRY_VALUES.has(folded)) return 'country'
  return ADDRESS_RE.test(folded) ? 'address' : null
}

/** A column read by its values: the kind most of them have (60 % of those given), scored by how many. */
function sampleGuess(values: readonly string[], column: number): Guess | null {
  const given = values.filter(Boolean)
  if (!given.length) return null
  const tally = new Map<Guessable, number>()
  for (const value of given) {
    const kind = valueKind(value)
    if (kind) tally.set(kind, (tally.get(kind) ?? 0) + 1)
  }
  const [kind, count] = [...tally].sort((a, b) => b[1] - a[1])[0] ?? []
  if (!kind || !count || count / given.length < 0.6) return null
  return { column, kind, score: 1 + count / given.length }
}

/**
 * The kind of each column, from its header or else from the values of `sampleRows` (the first rows of the file).
 * Each kind goes to one column at most, the surest guess first (a whole header before a word of one, a header
 * before values; the leftmost column on a tie); every other column is 'ignore'.
 */
export function guessColumnKinds(headers: string[], sampleRows: string[][] = []): ListColumnKind[] {
  const sheetOfPeople = headers.some((header) => PERSON_HEADERS.has(headerKey(header)))
  const guesses: Guess[] = []
  headers.forEach((header, column) => {
    const fromHeader = headerGuess(header, column, sheetOfPeople)
    if (fromHeader) guesses.push(fromHeader)
    // A header that names something else (a fax, a person) is not second-guessed by its values.
    if (fromHeader?.kind === 'ignore') return
    const fromValues = sampleGuess(sampleRows.slice(0, 50).map((row) => (row[column] ?? '').trim()), column)
    if (fromValues) guesses.push(fromValues)
  })
  guesses.sort((a, b) => b.score - a.score || a.column - b.column)
  const kinds: ListColumnKind[] = headers.map(() => 'ignore')
  const decided = new Set<number>()
  const taken = new Set<ListColumnKind>()
  for (const { column, kind } of guesses) {
    if (decided.has(column) || taken.has(kind)) continue
    decided.add(column)
    if (kind !== 'ignore') taken.add(kind)
    kinds[column] = kind
  }
  return kinds
}

// ---------------------------------------------------------------------------------------------------------------
// The mapping the user confirms

const KEY_KINDS: readonly ListColumnKind[] = ['name', 'website', 'siren', 'siret']
const EXACT_KEY_KINDS: readonly ListColumnKind[] = ['website', 'siren', 'siret']

function eachKindOnce(columns: readonly ListColumnKind[]): boolean {
  const kinds = columns.filter((kind) => kind !== 'ignore')
  return new Set(kinds).size === kinds.length
}

/** A name alone matches too many companies: it needs a place, unless an exact identifier is mapped beside it. */
function namePlaced(columns: readonly ListColumnKind[]): boolean {
  if (!columns.includes('name') || EXACT_KEY_KINDS.some((kind) => columns.includes(kind))) return true
  return columns.includes('postal_code') || columns.includes('city')
}

/** The column-mapping form's and the API's body: `columns[i]` is what column i of the file holds. Messages are i18n keys. */
export const ListMappingSchema = z
  .object({
    columns: z
      .array(z.enum(LIST_COLUMN_KINDS, { error: 'lists.errors.mappingKindInvalid' }), { error: 'lists.errors.mappingRequired' })
      .min(1, { error: 'lists.errors.mappingRequired', abort: true })
      .max(LIST_MAX_COLUMNS, { error: 'lists.errors.mappingTooManyColumns', abort: true }),
  })
  .refine(({ columns }) => eachKindOnce(columns), { error: 'lists.errors.mappingDuplicateKind', path: ['columns'] })
  .refine(({ columns }) => KEY_KINDS.some((kind) => columns.includes(kind)), { error: 'lists.errors.mappingNeedsKey', path: ['columns'] })
  .refine(({ columns }) => namePlaced(columns), { error: 'lists.errors.mappingNeedsPlace', path: ['columns'] })

export type ListMapping = z.infer<typeof ListMappingSchema>

// ---------------------------------------------------------------------------------------------------------------
// Reading a row

/** Why a row cannot be matched to a company (it is listed with its cells, never imported). */
type ListRowProblemCode = 'empty' | 'no_identifier' | 'name_without_place' | 'invalid_siret' | 'invalid_siren' | 'ids_disagree' | 'invalid_website' | 'shared_website'

export interface ListRowProblem {
  code: ListRowProblemCode
  /** The column at fault, when one is. */
  column?: number
  value?: string
  /** The row as the file gave it. */
  cells: string[]
}

/**
 * What was noticed in a row that is still matched: a cell that would run as a formula in a spreadsheet (kept as text:
 * nothing of the file is ever evaluated), a value not read (an unreadable email; a website that is a social page or a
 * directory listing, not the company's domain; a phone number, read on the server).
 */
type ListRowNoteCode = 'formula_text' | 'invalid_email' | 'invalid_website' | 'shared_website' | 'invalid_phone'

interface ListRowNote {
  code: ListRowNoteCode
  column: number
}

/** A row as the match reads it: canonical identifiers (null when not given) and the row's own cells. */
export interface ListRowInput {
  name: string | null
  /** The site's domain ("https://www.Acme.fr/contact" → "acme.fr"); a site on an IP address: its host and path. */
  domain: string | null
  /** 9 digits, Luhn-checked; the SIRET's first 9 when only the SIRET is given. */
  siren: string | null
  /** 14 digits, Luhn-checked (La Poste's rule for SIREN 356 000 000). */
  siret: string | null
  address: string | null
  /** Spaces removed; a French code Excel stored as a number ("1500") gets its leading zero back. */
  postalCode: string | null
  city: string | null
  /** As written (spaces collapsed): app/.server/lists/ reads it in E.164. */
  phone: string | null
  /** Lowercase, "mailto:" dropped. */
  email: string | null
  country: string | null
  cells: string[]
  notes: ListRowNote[]
}

type ValueKind = Exclude<ListColumnKind, 'ignore'>
interface Cell {
  text: string
  column: number
}
type MappedCells = Partial<Record<ValueKind, Cell>>

/** Cells people fill in to say "unknown": read as empty, or a "-" in the SIRET column would refuse the row. */
const PLACEHOLDERS = new Set(['-', '--', '?', 'n/a', 'na', 'nc', 'n.c.', 'n.c', 'nd', 'n.d.', '#n/a', 'null', 'none', 'aucun', 'non communique', 'non renseigne', 'inconnu', 'unknown'])

const clean = (text: string) => text.replace(/\s+/g, ' ').trim()

function mappedCells(row: readonly string[], columns: readonly ListColumnKind[]): MappedCells {
  const cells: MappedCells = {}
  columns.forEach((kind, column) => {
    const text = clean(row[column] ?? '')
    if (kind === 'ignore' || !text || PLACEHOLDERS.has(foldToAscii(text)) || cells[kind]) return
    cells[kind] = { text, column }
  })
  return cells
}

// What a spreadsheet would run: "=", or "+", "-", "@" before anything but a digit ("+33 1…" and "-12" are data), or a
// leading tab or CR (some importers skip them), full-width forms included.
const FORMULA_RE = /^(?:[=\uFF1D]|[+\-@\uFF0B\uFF0D\uFF20](?=\D)|[\t\r])/

function formulaNotes(row: readonly string[], columns: readonly ListColumnKind[]): ListRowNote[] {
  return columns.flatMap((kind, column) => (kind !== 'ignore' && FORMULA_RE.test(row[column] ?? '') ? [{ code: 'formula_text' as const, column }] : []))
}

type CompanyIds = { siret: string | null; siren: string | null }
type CellProblem = { code: ListRowProblemCode; column: number; value: string }

/**
 * One SIRET or SIREN cell. Its length says which it is, whatever the column's name ("SIREN/SIRET" columns hold
 * both); spaces, dots and dashes are how people group digits. A wrong check digit is a typo, never a company.
 */
function readId(cell: Cell, columnKind: 'siret' | 'siren'): CompanyIds | CellProblem {
  const digits = /^[\d\s.-]+$/.test(cell.text) ? cell.text.replace(/\D/g, '') : ''
  if (digits.length === 14 && isValidSiret(digits)) return { siret: digits, siren: digits.slice(0, 9) }
  if (digits.length === 9 && isValidSiren(digits)) return { siret: null, siren: digits }
  const code = digits.length === 14 ? 'invalid_siret' : digits.length === 9 ? 'invalid_siren' : `invalid_${columnKind}` as const
  return { code, column: cell.column, value: cell.text }
}

/** The row's SIRET and SIREN; a SIREN column naming another company than the SIRET column is refused. */
function readCompanyIds(cells: MappedCells): CompanyIds | CellProblem {
  const read = (['siret', 'siren'] as const).flatMap((kind) => {
    const cell = cells[kind]
    return cell ? [readId(cell, kind)] : []
  })
  const problem = read.find((ids): ids is CellProblem => 'code' in ids)
  if (problem) return problem
  const [first, second] = read as CompanyIds[]
  if (!first) return { siret: null, siren: null }
  if (second && (second.siren !== first.siren || (first.siret && second.siret && first.siret !== second.siret))) {
    const cell = cells.siren!
    return { code: 'ids_disagree', column: cell.column, value: cell.text }
  }
  return { siret: first.siret ?? second?.siret ?? null, siren: first.siren }
}

/** Hosts of pages about a company (social networks, directories, maps), shared by many: never its own domain. */
const SHARED_HOSTS = [
  'facebook.com', 'fb.com', 'fb.me', 'linkedin.com', 'instagram.com', 'twitter.com', 'x.com', 'youtube.com', 'youtu.be', 'tiktok.com',
  'google.com', 'google.fr', 'goo.gl', 'g.page', 'linktr.ee', 'wa.me', 'pagesjaunes.fr', 'societe.com', 'pappers.fr', 'infogreffe.fr',
  'data.gouv.fr', 'tripadvisor.fr', 'tripadvisor.com', 'yelp.fr', 'yelp.com', 'booking.com', 'doctolib.fr', 'leboncoin.fr', 'thefork.fr',
  'lafourchette.com', 'planity.com', 'ubereats.com', 'deliveroo.fr',
]

/**
 * A site served from an IP address (the demo websites, a file exported from LeadAtlas in demo mode) has no domain: its
 * host and path name it. The crawler's guard still refuses a private address outside the allow-list.
 */
function ipSiteKey(text: string): string | null {
  if (!/^https?:\/\//i.test(text) || !URL.canParse(text)) return null
  const url = new URL(text)
  if (!/^\d{1,3}(?:\.\d{1,3}){3}$/.test(url.hostname) && !url.hostname.startsWith('[')) return null
  return `${url.host}${url.pathname.replace(/\/+$/, '')}`.toLowerCase()
}

function readWebsite(cell: Cell): { domain: string | null; note?: ListRowNoteCode } {
  // websiteDomain reads "contact@acme.fr" as a URL with a user name: an address in the website column is not a site.
  const domain = /^[^/]*@/.test(cell.text) ? null : (websiteDomain(cell.text) ?? ipSiteKey(cell.text))
  if (!domain) return { domain: null, note: 'invalid_website' }
  if (SHARED_HOSTS.some((host) => domain === host || domain.endsWith(`.${host}`))) return { domain: null, note: 'shared_website' }
  return { domain }
}

function readEmail(cell: Cell): string | null {
  const text = cell.text.replace(/^mailto:/i, '')
  return EMAIL_RE.test(text) ? text.toLowerCase() : null
}

const FRANCE = new Set(['france', 'fr', 'fra', 'france metropolitaine', 'republique francaise'])

function readPostalCode(text: string, country: string | null): string {
  const compact = text.replace(/\s/g, '')
  // Our users are French: a 4-digit code with no other country is a French one whose leading zero a spreadsheet dropped.
  if (/^\d{4}$/.test(compact) && (!country || FRANCE.has(normalizeForSearch(country)))) return `0${compact}`
  return /^\d+$/.test(compact) ? compact : text.toUpperCase()
}

function inputOf(row: readonly string[], cells: MappedCells, ids: CompanyIds, domain: string | null): ListRowInput {
  const country = cells.country?.text ?? null
  return {
    name: cells.name?.text ?? null,
    domain,
    ...ids,
    address: cells.address?.text ?? null,
    postalCode: cells.postal_code ? readPostalCode(cells.postal_code.text, country) : null,
    city: cells.city?.text ?? null,
    phone: cells.phone?.text ?? null,
    email: cells.email ? readEmail(cells.email) : null,
    country,
    cells: [...row],
    notes: [],
  }
}

/** Why a read row gives nothing to match by, or null: an identifier, or a name with its postal code or city. */
function missingIdentifier(input: ListRowInput, cells: MappedCells, websiteNote: ListRowNoteCode | undefined): Omit<ListRowProblem, 'cells'> | null {
  if (input.siret || input.siren || input.domain) return null
  if (input.name && (input.postalCode || input.city)) return null
  if (input.name) return { code: 'name_without_place', column: cells.name!.column, value: input.name }
  if (websiteNote === 'invalid_website' || websiteNote === 'shared_website') return { code: websiteNote, column: cells.website!.column, value: cells.website!.text }
  return { code: 'no_identifier' }
}

/** One data row of the file read through the confirmed mapping: what the match uses, or why the row cannot be matched. */
export function rowToListInput(row: string[], mapping: Pick<ListMapping, 'columns'>): { input: ListRowInput } | { unusable: ListRowProblem } {
  const cells = mappedCells(row, mapping.columns)
  if (!Object.keys(cells).length) return { unusable: { code: 'empty', cells: [...row] } }
  const ids = readCompanyIds(cells)
  if ('code' in ids) return { unusable: { ...ids, cells: [...row] } }
  const website = cells.website ? readWebsite(cells.website) : { domain: null }
  const input = inputOf(row, cells, ids, website.domain)
  const missing = missingIdentifier(input, cells, website.note)
  if (missing) return { unusable: { ...missing, cells: [...row] } }
  input.notes = formulaNotes(row, mapping.columns)
  if (website.note) input.notes.push({ code: website.note, column: cells.website!.column })
  if (cells.email && !input.email) input.notes.push({ code: 'invalid_email', column: cells.email.column })
  return { input }
}

/**
 * The company a row names, for telling two rows of one list apart: its SIRET, else its SIREN, else its domain, else its
 * name (folded) with its postal code or, without one, its city. One key, the most precise: two establishments of a
 * company share a site and stay two rows; null for a row with nothing to match by.
 */
export function dedupeKeyOfRow(input: ListRowInput): string | null {
  if (input.siret) return `siret:${input.siret}`
  if (input.siren) return `siren:${input.siren}`
  if (input.domain) return `domain:${input.domain}`
  if (!input.name) return null
  if (input.postalCode) return `name:${normalizeForSearch(input.name)}|cp:${input.postalCode}`
  return input.city ? `name:${normalizeForSearch(input.name)}|city:${normalizeForSearch(input.city)}` : null
}
