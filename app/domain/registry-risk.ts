/**
 * A company's registry risk from its BODACC announcements: an open collective procedure (sauvegarde, redressement,
 * liquidation) or a radiation, with the announcement that decides it. Pure: the BODACC import reads records with
 * `readBodaccRecord`, the lead pages and exports call `riskStatus`.
 *
 * The rules are the official Annuaire des Entreprises' (annuaire-entreprises-data-gouv-fr/search-infra,
 * workflows/data_pipelines/bodacc/, commit 7c03bdb), reimplemented: annulations, rectificatifs and rétractations are
 * applied first, then the latest judgment decides (a clôture or a judgment older than ten years clears it), and a
 * sole trader's radiation is hidden once Sirene or a later BODACC création shows the business running again.
 * docs/registry-events-sources.md records every rule with where it was read.
 */
type BodaccKind = 'annonce' | 'rectificatif' | 'annulation'

export type ProcedureStatus = 'sauvegarde' | 'redressement' | 'liquidation'
type RegistryRiskStatus = 'none' | ProcedureStatus | 'radiee'

interface BodaccJudgment {
  /** `jugement.famille`: "Jugement d'ouverture", "Jugement de clôture", "Avis de dépôt"… */
  famille: string
  /** `jugement.nature`: the exact text the classification table is keyed on. */
  nature: string
  complement: string
  /** YYYY-MM-DD; null when missing or not a real date (the Annuaire drops those too). */
  date: string | null
}

/** One BODACC announcement, normalised from the open-data record. */
export interface BodaccAnnouncement {
  /** `id`: edition letter + parution number + announcement number ("A202400981234"). */
  id: string
  /** Every company the announcement names (a procedure can extend to several). */
  sirens: string[]
  /** `dateparution`, YYYY-MM-DD. */
  publishedOn: string
  /** `familleavis`: collective, radiation, creation, immatriculation, modification, vente, dpc… */
  family: string
  kind: BodaccKind
  /** The announcement a rectificatif replaces or an annulation cancels (`parutionavisprecedent`). */
  correctsId: string | null
  judgment: BodaccJudgment | null
  /** `radiationaurcs`, for radiations: the sole trader's cessation date (legal persons have none) and comment. */
  radiation: { date: string | null; comment: string } | null
  /** `acte` of a création: its immatriculation date, else the start of activity. */
  createdOn: string | null
  /** The announcing person is a natural person (`typePersonne: "pp"`). */
  naturalPerson: boolean
  tribunal: string | null
  url: string
}

export interface RegistryRiskOptions {
  /** YYYY-MM-DD: the ten-year expiry counts back from it. */
  today: string
  /** Sirene: the unité légale is active and at least one of its établissements is active. */
  entityActive: boolean
  /** Catégorie juridique 1000 (sole trader); when unknown, the radiation's own `typePersonne` is used. */
  soleTrader?: boolean
  /** Latest establishment creation, start of activity or RNE immatriculation date (YYYY-MM-DD). */
  restartedOn?: string | null
}

export interface RegistryRisk {
  status: RegistryRiskStatus
  /** The announcement that decides the status (for `none`: the clôture or expired judgment, when any). */
  announcement: BodaccAnnouncement | null
  procedure: { status: ProcedureStatus | null; cleared: 'closed' | 'expired' | null; announcement: BodaccAnnouncement | null }
  radiation: { announcement: BodaccAnnouncement; hiddenBecause: RadiationHiddenReason[] } | null
}

type RadiationHiddenReason = 'active_on_sirene' | 'new_establishment_since' | 'bodacc_creation_since'

const BODACC_DETAIL_URL = 'https://www.bodacc.fr/pages/annonces-commerciales-detail/?q.id=id:'
/** The Annuaire counts a procedure with no new judgment for ten years as over (they should not last that long). */
const PROCEDURE_EXPIRY_YEARS = 10

type Rule = readonly [nature: string, status: ProcedureStatus | null, complementContains?: string]

/**
 * The Annuaire's classification (search-infra rule.yml), in its order: the first rule whose nature is equal and
 * whose complement (if the rule names one) contains the text, case-insensitively, decides. Natures that close or
 * merely administer a procedure map to null; an unknown nature is null too.
 */
const JUDGMENT_RULES: readonly Rule[] = [
  ["Jugement d'ouverture de liquidation judiciaire", 'liquidation'],
  ["Jugement d'extension de liquidation judiciaire", 'liquidation'],
  ['Jugement de conversion en liquidation judiciaire', 'liquidation'],
  ['Jugement de conversion en liquidation judiciaire de la procédure de sauvegarde', 'liquidation'],
  ['Jugement de conversion en liquidation judiciaire de la procédure de sauvegarde financière accélérée', 'liquidation'],
  ['Jugement prononçant la résolution du plan de sauvegarde et la liquidation judiciaire', 'liquidation'],
  ['Jugement prononçant la résolution du plan de sauvegarde accélérée et la liquidation judiciaire', 'liquidation'],
  ['Jugement prononçant la résolution du plan de sauvegarde financière accélérée et la liquidation judiciaire', 'liquidation'],
  ['Jugement prononçant la résolution du plan de cession et la liquidation judiciaire', 'liquidation'],
  ['Jugement prononçant la résolution du plan de traitement de sortie de crise et la liquidation judiciaire', 'liquidation'],
  ['Jugement mettant fin à la procédure de traitement de sortie de crise et ouvrant une procédure de liquidation judiciaire', 'liquidation'],
  ['Autre jugement prononçant', 'liquidation', 'liquidation judiciaire'],
  ["Autre jugement d'ouverture", 'liquidation', 'liquidation judiciaire'],
  ["Jugement d'ouverture d'une procédure de redressement judiciaire", 'redressement'],
  ["Jugement d'extension d'une procédure de redressement judiciaire", 'redressement'],
  ['Jugement prononçant la résolution du plan de sauvegarde et le redressement judiciaire', 'redressement'],
  ['Jugement de conversion en redressement judiciaire de la procédure de sauvegarde', 'redressement'],
  ['Jugement de conversion en redressement judiciaire de la procédure de sauvegarde financière accélérée', 'redressement'],
  ['Jugement mettant fin à la procédure de traitement de sortie de crise et ouvrant une procédure de redressement judiciaire', 'redressement'],
  ['Autre jugement prononçant', 'redressement', 'redressement judiciaire'],
  ["Autre jugement d'ouverture", 'redressement', 'redressement judiciaire'],
  ["Jugement d'ouverture d'une procédure de sauvegarde", 'sauvegarde'],
  ["Jugement d'extension d'une procédure de sauvegarde", 'sauvegarde'],
  ["Jugement d'ouverture d'une procédure de sauvegarde accélérée", 'sauvegarde'],
  ["Jugement d'ouverture d'une procédure de sauvegarde financière accélérée", 'sauvegarde'],
  ['Autre jugement prononçant', 'sauvegarde', 'sauvegarde'],
  ["Autre jugement d'ouverture", 'sauvegarde', 'sauvegarde'],
  // The rest end or administer a procedure: listed so that they are known, not warned about.
  ['Jugement de plan de redressement', null, 'continuation de l’activité'],
  ...[
    "Jugement de clôture pour insuffisance d'actif",
    'Jugement de clôture pour extinction du passif',
    "Jugement de clôture pour insuffisance d'actif et autorisant la reprise des poursuites individuelles",
    "Jugement de clôture de la liquidation des biens pour insuffisance d'actif",
    'Jugement de clôture de la liquidation des biens pour extinction du passif',
    'Jugement de clôture de la procédure de sauvegarde',
    'Jugement prononçant la clôture de la procédure de rétablissement professionnel',
    'Jugement prononçant la résolution du plan de sauvegarde',
    'Autre jugement de liquidation des biens',
    'Autre jugement de clôture',
    "Autre arrêt de la Cour d'Appel",
    "Arrêt de la cour d'appel infirmant une décision soumise à publicité",
    "Jugement d'ouverture d'une procédure de traitement de sortie de crise",
    'Jugement de désignation des organes de la procédure',
    'Jugement accordant un délai pour déposer la liste des créances',
    'Dépôt de l\'état des créances',
    'Dépôt de l\'état des créances Loi de 1985',
    "Dépôt de l'état de collocation",
    'Dépôt du projet de répartition',
    "Dépôt de l'état des créances et du projet de répartition",
    "Liste des créances nées après le jugement d'ouverture d'une procédure de liquidation judiciaire",
    "Liste des créances nées après le jugement d'ouverture d'une procédure de redressement judiciaire",
    'Autre avis de dépôt',
    'Autre jugement prononçant',
    "Autre jugement d'ouverture",
  ].map((nature): Rule => [nature, null]),
]

/** The procedure a judgment opens or keeps open, by the Annuaire's table; null for the others. */
export function judgmentStatus(nature: string, complement: string): ProcedureStatus | null {
  if (!nature) return null
  const text = complement.toLowerCase()
  for (const [ruleNature, status, contains] of JUDGMENT_RULES) {
    if (ruleNature !== nature) continue
    if (contains !== undefined && !text.includes(contains.toLowerCase())) continue
    return status
  }
  return null
}

/** Whether the table knows the nature (an unknown one is logged as a warning by the Annuaire). */
export function isKnownJudgmentNature(nature: string): boolean {
  return JUDGMENT_RULES.some(([ruleNature]) => ruleNature === nature)
}

/** Families that are no judgment on the procedure: a filing notice, odd extracts, the pre-1985 law. */
const NON_PROCEDURE_FAMILIES = new Set(['Avis de dépôt', 'Extrait de jugement', 'Loi de 1967'])

/** A clôture is told by the judgment's family, not its nature ("Jugement de clôture…"). */
export function isClosingJudgment(famille: string): boolean {
  return famille.toLowerCase().includes('jugement de clôture')
}

/** A rétractation sur tierce opposition withdraws the judgment it names, like an annulation. */
function isRetraction(famille: string): boolean {
  return famille.toLowerCase().includes('rétractation sur tierce opposition')
}

/** A rectificatif "Rapport de radiation d'office" withdraws the radiation: it is an annulation in disguise. */
function isRadiationWithdrawal(announcement: BodaccAnnouncement): boolean {
  return announcement.kind === 'rectificatif' && announcement.radiation?.comment === "Rapport de radiation d'office"
}

/**
 * Applies corrections the Annuaire's way, in one pass over the whole set: every announcement an annulation, a
 * rectificatif or a rétractation points at is removed; then annulations, rétractations and radiation withdrawals
 * are removed themselves. A rectificatif stays: it carries the corrected values.
 */
export function applyCorrections(announcements: readonly BodaccAnnouncement[]): BodaccAnnouncement[] {
  const corrected = new Set<string>()
  for (const a of announcements) {
    const retraction = a.judgment !== null && isRetraction(a.judgment.famille)
    if (a.correctsId && (a.kind !== 'annonce' || retraction)) corrected.add(a.correctsId)
  }
  return announcements.filter((a) => {
    if (corrected.has(a.id)) return false
    if (a.kind === 'annulation' || isRadiationWithdrawal(a)) return false
    return !(a.judgment && isRetraction(a.judgment.famille))
  })
}

/** Newest first by the event's date (missing dates last, as pandas sorts NaT), then by publication, then by id. */
function newestFirst(dateOf: (a: BodaccAnnouncement) => string | null) {
  return (x: BodaccAnnouncement, y: BodaccAnnouncement): number => {
    const dx = dateOf(x)
    const dy = dateOf(y)
    if (dx !== dy) return dx === null ? 1 : dy === null ? -1 : dy.localeCompare(dx)
    // Ties: the Annuaire keeps the file's order; the id makes ours repeatable.
    return y.publishedOn.localeCompare(x.publishedOn) || y.id.localeCompare(x.id)
  }
}

/** The same day `years` earlier (29 February falls back to the 28th, as pandas' DateOffset does). */
export function yearsBefore(day: string, years: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number]
  const lastDay = new Date(Date.UTC(y - years, m, 0)).getUTCDate()
  return `${String(y - years).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(Math.min(d, lastDay)).padStart(2, '0')}`
}

/**
 * The open procedure, by the latest judgment alone. The Annuaire compares with "now" (a time of day), so a judgment
 * dated exactly ten years ago is already expired: hence `<=` on days.
 */
function procedureOf(announcements: readonly BodaccAnnouncement[], today: string): RegistryRisk['procedure'] {
  const judgments = announcements.filter((a) => a.family === 'collective' && a.judgment && !NON_PROCEDURE_FAMILIES.has(a.judgment.famille))
  const latest = judgments.sort(newestFirst((a) => a.judgment?.date ?? null))[0]
  if (!latest?.judgment) return { status: null, cleared: null, announcement: null }
  const { famille, nature, complement, date } = latest.judgment
  if (isClosingJudgment(famille)) return { status: null, cleared: 'closed', announcement: latest }
  if (date !== null && date <= yearsBefore(today, PROCEDURE_EXPIRY_YEARS)) return { status: null, cleared: 'expired', announcement: latest }
  return { status: judgmentStatus(nature, complement), cleared: null, announcement: latest }
}

/** Before April 2012 a head office moving to another greffe was published as a radiation: the company lives on. */
function isHeadOfficeTransfer(announcement: BodaccAnnouncement): boolean {
  return announcement.radiation?.comment === 'Transfert du siège hors ressort'
}

/**
 * The latest radiation and why it is hidden, if it is: a sole trader active on Sirene, a sole trader with an
 * establishment (or immatriculation) since the radiation date, or a BODACC création since it. Only sole traders'
 * radiations carry a date, so the last two never hide a company's.
 */
function radiationOf(announcements: readonly BodaccAnnouncement[], options: RegistryRiskOptions): RegistryRisk['radiation'] {
  const radiations = announcements.filter((a) => a.family === 'radiation' && !isHeadOfficeTransfer(a))
  const latest = radiations.sort(newestFirst((a) => a.radiation?.date ?? null))[0]
  if (!latest) return null
  const soleTrader = options.soleTrader ?? latest.naturalPerson
  const since = latest.radiation?.date ?? null
  const hiddenBecause: RadiationHiddenReason[] = []
  if (soleTrader && options.entityActive) hiddenBecause.push('active_on_sirene')
  if (soleTrader && since !== null && options.restartedOn && options.restartedOn >= since) hiddenBecause.push('new_establishment_since')
  const created = announcements.some((a) => a.family === 'creation' && a.createdOn !== null && since !== null && a.createdOn >= since)
  if (created) hiddenBecause.push('bodacc_creation_since')
  return { announcement: latest, hiddenBecause }
}

/**
 * The company's risk now. The Annuaire shows a radiation and a procedure side by side; a lead has one status, so a
 * visible radiation (the company is struck off) outranks a procedure, which outranks nothing.
 */
export function riskStatus(announcements: readonly BodaccAnnouncement[], options: RegistryRiskOptions): RegistryRisk {
  const kept = applyCorrections(announcements)
  const procedure = procedureOf(kept, options.today)
  const radiation = radiationOf(kept, options)
  if (radiation && radiation.hiddenBecause.length === 0) return { status: 'radiee', announcement: radiation.announcement, procedure, radiation }
  if (procedure.status) return { status: procedure.status, announcement: procedure.announcement, procedure, radiation }
  return { status: 'none', announcement: procedure.announcement, procedure, radiation }
}

// Reading the open-data record -----------------------------------------------------------------------------------

type Json = Record<string, unknown>

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The export gives nested structures as JSON text (`jugement`, `listepersonnes`…); a parsed object is taken too. */
function jsonField(value: unknown): Json | null {
  if (isObject(value)) return value
  if (typeof value !== 'string' || !value.trim()) return null
  try {
    const parsed: unknown = JSON.parse(value)
    return isObject(parsed) ? parsed : null
  } catch {
    return null
  }
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : ''
}

/** UTF-8 read as Latin-1 upstream ("clÃ´ture"): re-decoded when that is what it is, else left alone. */
export function fixMojibake(value: string): string {
  if (!value || [...value].some((ch) => ch.charCodeAt(0) > 0xff)) return value
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(value, (ch) => ch.charCodeAt(0)))
  } catch {
    return value
  }
}

const MONTHS: Record<string, string> = {
  janvier: '01', fevrier: '02', mars: '03', avril: '04', mai: '05', juin: '06',
  juillet: '07', aout: '08', septembre: '09', octobre: '10', novembre: '11', decembre: '12',
}

function realDay(iso: string): string | null {
  const day = new Date(`${iso}T00:00:00Z`)
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === iso ? iso : null
}

/**
 * A BODACC date as YYYY-MM-DD: ISO, "27/01/2022" or "1er janvier 2020" (judgment dates come in all three); null
 * when it is none of them or no real day (the data holds a few like "5025-05-27", which the Annuaire drops).
 */
export function parseBodaccDate(value: unknown): string | null {
  const raw = text(value).replace(/\u00a0/g, ' ')
  if (/^\d{4}-\d{2}-\d{2}/.test(raw)) return realDay(raw.slice(0, 10))
  const numeric = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(raw)
  if (numeric) return realDay(`${numeric[3]}-${numeric[2]}-${numeric[1]}`)
  const spelled = /^(\d{1,2})(?:er)?\s+(\p{L}+)\s+(\d{4})/u.exec(raw)
  const month = spelled && MONTHS[spelled[2]!.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '')]
  return spelled && month ? realDay(`${spelled[3]}-${month}-${spelled[1]!.padStart(2, '0')}`) : null
}

/** `personne` is one object for one person and an array for several. */
function persons(record: Json): Json[] {
  const person = jsonField(record.listepersonnes)?.personne
  return (Array.isArray(person) ? person : [person]).filter(isObject)
}

function sirenOf(value: unknown): string | null {
  const digits = text(value).replace(/\D/g, '')
  return digits.length > 0 && digits.length <= 9 ? digits.padStart(9, '0') : null
}

/** RCS number, else the trades register's; `registre` ("833 310 592,833310592") when no person gives one. */
function sirensOf(record: Json): string[] {
  const found = persons(record).map((p) => {
    const rcs = isObject(p.numeroImmatriculation) ? sirenOf(p.numeroImmatriculation.numeroIdentification) : null
    return rcs ?? (isObject(p.inscriptionRM) ? sirenOf(p.inscriptionRM.numeroIdentificationRM) : null)
  })
  const registre = Array.isArray(record.registre) ? record.registre : text(record.registre).split(',')
  const sirens = found.some(Boolean) ? found : registre.map((r) => (text(r).replace(/\D/g, '').length === 9 ? sirenOf(r) : null))
  return [...new Set(sirens.filter((s): s is string => s !== null))]
}

/** The id of the announcement corrected: its edition letter ("BODACC A" → A), parution and announcement numbers. */
function correctedIdOf(value: unknown): string | null {
  const previous = jsonField(value)
  if (!previous) return null
  const letter = text(previous.nomPublication).split(/\s+/).pop() ?? ''
  const parution = text(previous.numeroParution)
  const number = text(previous.numeroAnnonce)
  return letter && parution && number ? `${letter}${parution}${number}` : null
}

function judgmentOf(value: unknown): BodaccJudgment | null {
  const judgment = jsonField(value)
  if (!judgment) return null
  return {
    famille: fixMojibake(text(judgment.famille)),
    nature: fixMojibake(text(judgment.nature)),
    complement: fixMojibake(text(judgment.complementJugement)),
    date: parseBodaccDate(judgment.date),
  }
}

/** The current sole-trader shape puts the date at the top, the older one under `radiationPP`. */
function radiationOfRecord(value: unknown): BodaccAnnouncement['radiation'] {
  const radiation = jsonField(value)
  if (!radiation) return null
  const legacy = isObject(radiation.radiationPP) ? radiation.radiationPP.dateCessationActivitePP : undefined
  return { date: parseBodaccDate(radiation.dateCessationActivitePP ?? legacy), comment: text(radiation.commentaire) }
}

function createdOnOf(value: unknown): string | null {
  const acte = jsonField(value)
  return acte ? parseBodaccDate(text(acte.dateImmatriculation) || text(acte.dateCommencementActivite)) : null
}

/**
 * One record of the `annonces-commerciales` dataset (an export row, an API v2.1 result, or a v1 record with its
 * `fields`) as an announcement; null without an id, a publication date or a company. A `typeavis` other than
 * rectificatif or annulation is an ordinary announcement, as the Annuaire treats it.
 */
export function readBodaccRecord(raw: unknown): BodaccAnnouncement | null {
  const record = isObject(raw) && isObject(raw.fields) ? raw.fields : raw
  if (!isObject(record)) return null
  const id = text(record.id) || `${text(record.publicationavis)}${text(record.parution)}${text(record.numeroannonce)}`
  const publishedOn = parseBodaccDate(record.dateparution)
  const sirens = sirensOf(record)
  if (!/^[A-C]\d+$/.test(id) || !publishedOn || sirens.length === 0) return null
  const typeavis = text(record.typeavis)
  const url = text(record.url_complete)
  return {
    id,
    sirens,
    publishedOn,
    family: text(record.familleavis),
    kind: typeavis === 'rectificatif' || typeavis === 'annulation' ? typeavis : 'annonce',
    correctsId: correctedIdOf(record.parutionavisprecedent),
    judgment: judgmentOf(record.jugement),
    radiation: radiationOfRecord(record.radiationaurcs),
    createdOn: createdOnOf(record.acte),
    naturalPerson: persons(record).some((p) => p.typePersonne === 'pp'),
    tribunal: text(record.tribunal) || null,
    url: url.startsWith('https://www.bodacc.fr/') ? url : `${BODACC_DETAIL_URL}${id}`,
  }
}
