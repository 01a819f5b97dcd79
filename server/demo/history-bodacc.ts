/**
 * A demo registry company's announcement as a record of the DILA BODACC open data (`annonces-commerciales`
 * exports/json), with its real fields (docs/registry-events-sources.md §1, tests/fixtures/bodacc/*.json): nested
 * structures as JSON text, the id = edition letter + parution + announcement number.
 */
import { franceData, topCommunes } from '#app/.server/geo/france.ts'
import type { HistoryCompany } from './history-companies.ts'
import { LEGAL_FORMS } from './registry-company.ts'
import { soleTraderOf, streetOf } from './history-sirene.ts'

export type BodaccFamily = 'collective' | 'radiation' | 'creation' | 'immatriculation'

export interface BodaccRecord {
  [field: string]: unknown
  id: string
  publicationavis: 'A' | 'B'
  publicationavis_facette: string
  parution: string
  dateparution: string
  numeroannonce: number
  typeavis: 'annonce' | 'rectificatif' | 'annulation'
  typeavis_lib: string
  familleavis: BodaccFamily
  familleavis_lib: string
  numerodepartement: string
  departement_nom_officiel: string
  region_code: number
  region_nom_officiel: string
  tribunal: string
  commercant: string
  ville: string
  cp: string
  registre: string
  listepersonnes: string
  url_complete: string
  jugement?: string
  radiationaurcs?: string
  acte?: string
  parutionavisprecedent?: string
}

const FAMILY_LABELS: Record<BodaccFamily, string> = {
  collective: 'Procédures collectives',
  radiation: 'Radiations',
  creation: 'Créations',
  immatriculation: 'Immatriculations',
}
const KIND_LABELS = { annonce: 'Avis initial', rectificatif: 'Avis rectificatif', annulation: "Avis d'annulation" } as const

export interface Judgment {
  famille: string
  nature: string
  date: string
  complementJugement: string
}

/** Where a published announcement sits: what a rectificatif or an annulation points at. */
export interface Publication {
  edition: 'A' | 'B'
  parution: string
  day: string
  number: number
}

export type BodaccContent =
  | { family: 'collective'; kind: 'annonce' | 'rectificatif' | 'annulation'; judgment: Judgment; corrects?: Publication }
  | { family: 'radiation'; ceasedOn: string }
  | { family: 'creation' | 'immatriculation'; createdOn: string }

/** The department's greffe: its most populous commune (Bordeaux for Gironde). */
function greffeOf(departmentCode: string): string {
  return topCommunes({ departmentCode }, 1)[0]?.nom ?? departmentCode
}

function spacedSiren(siren: string): string {
  return `${siren.slice(0, 3)} ${siren.slice(3, 6)} ${siren.slice(6)}`
}

function personOf(history: HistoryCompany, greffe: string): Record<string, unknown> {
  const { company } = history
  const siren = String(company.siren)
  const registration = { codeRCS: 'RCS', numeroIdentification: spacedSiren(siren), nomGreffeImmat: greffe }
  const street = streetOf(String((company.siege as { adresse?: string }).adresse ?? ''))
  const siege = company.siege as { code_postal?: string; libelle_commune?: string }
  const address = { numeroVoie: street.number, typeVoie: street.type?.toLowerCase() ?? null, nomVoie: street.street, codePostal: siege.code_postal, ville: siege.libelle_commune, pays: 'France' }
  if (company.nature_juridique === '1000') {
    const person = soleTraderOf(siren)
    return { typePersonne: 'pp', nom: person.nom, prenom: person.prenom, nomCommercial: history.sign.toUpperCase(), numeroImmatriculation: registration, adresseSiegeSocial: address }
  }
  const form = LEGAL_FORMS.find(([code]) => code === company.nature_juridique)?.[1] ?? null
  return { typePersonne: 'pm', denomination: company.nom_raison_sociale, formeJuridique: form, numeroImmatriculation: registration, adresseSiegeSocial: address }
}

function familyFields(content: BodaccContent, naturalPerson: boolean): Partial<BodaccRecord> {
  if (content.family === 'collective') {
    const previous = content.corrects
      ? { parutionavisprecedent: JSON.stringify({ nomPublication: `BODACC ${content.corrects.edition}`, numeroParution: content.corrects.parution, dateParution: content.corrects.day, numeroAnnonce: String(content.corrects.number) }) }
      : {}
    const type = content.kind === 'annonce' ? 'initial' : content.kind
    return { jugement: JSON.stringify({ type, ...content.judgment }), ...previous }
  }
  if (content.family === 'radiation') {
    // Legal persons carry no date (SI radiations.py); a sole trader, the day activity ceased.
    return { radiationaurcs: JSON.stringify(naturalPerson ? { dateCessationActivitePP: content.ceasedOn } : { radiationPM: 'O' }) }
  }
  const who = naturalPerson ? 'personne physique' : 'personne morale (B, C, D)'
  const act =
    content.family === 'creation'
      ? { creation: { categorieCreation: `Immatriculation d'une ${who} suite à création d'un établissement principal` } }
      : { immatriculation: { categorieImmatriculation: `Immatriculation d'une ${who} suite à transfert de son siège social` } }
  return { acte: JSON.stringify({ ...act, dateImmatriculation: content.createdOn, dateCommencementActivite: content.createdOn }) }
}

export function bodaccRecord(history: HistoryCompany, publication: Publication, content: BodaccContent): BodaccRecord {
  const { company, commune } = history
  const { departments, regions } = franceData()
  const department = departments.find((d) => d.code === commune.departement)
  const region = regions.find((r) => r.code === commune.region)
  const greffe = greffeOf(commune.departement)
  const person = personOf(history, greffe)
  const siren = String(company.siren)
  const siege = company.siege as { code_postal?: string; libelle_commune?: string }
  const id = `${publication.edition}${publication.parution}${publication.number}`
  const kind = content.family === 'collective' ? content.kind : 'annonce'
  return {
    id,
    publicationavis: publication.edition,
    publicationavis_facette: `Bodacc ${publication.edition}`,
    parution: publication.parution,
    dateparution: publication.day,
    numeroannonce: publication.number,
    typeavis: kind,
    typeavis_lib: KIND_LABELS[kind],
    familleavis: content.family,
    familleavis_lib: FAMILY_LABELS[content.family],
    numerodepartement: commune.departement,
    departement_nom_officiel: department?.nom ?? commune.departement,
    region_code: Number(commune.region),
    region_nom_officiel: region?.nom ?? commune.region,
    tribunal: `TRIBUNAL DE COMMERCE DE ${greffe.toUpperCase()}`,
    commercant: person.typePersonne === 'pp' ? `${String(person.nom)} ${String(person.prenom)}` : String(company.nom_raison_sociale),
    ville: siege.libelle_commune ?? commune.nom,
    cp: siege.code_postal ?? '',
    registre: `${spacedSiren(siren)},${siren}`,
    listepersonnes: JSON.stringify({ personne: person }),
    url_complete: `https://www.bodacc.fr/pages/annonces-commerciales-detail/?q.id=id:${id}`,
    ...familyFields(content, person.typePersonne === 'pp'),
  }
}
