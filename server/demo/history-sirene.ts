/**
 * A demo registry company as an item of the INSEE Sirene API 3.11 `GET /siret` answer (`etablissements[]`), with
 * the field names the API uses (docs/registry-events-sources.md §5): what the fake INSEE flux serves for a creation
 * or a closure the event history processed that day.
 */
import { hashString, rngFor } from '#app/.server/sources/demo/prng.ts'
import type { HistoryCompany } from './history-companies.ts'

type Nullable<T> = T | null

export interface SireneEtablissement {
  [field: string]: unknown
  siren: string
  nic: string
  siret: string
  statutDiffusionEtablissement: 'O'
  dateCreationEtablissement: string
  trancheEffectifsEtablissement: Nullable<string>
  anneeEffectifsEtablissement: Nullable<string>
  activitePrincipaleRegistreMetiersEtablissement: null
  /** "2026-03-02T04:12:37.000": when Sirene last processed it (the flux's `q=` field). */
  dateDernierTraitementEtablissement: string
  etablissementSiege: boolean
  nombrePeriodesEtablissement: number
  uniteLegale: {
    etatAdministratifUniteLegale: 'A' | 'C'
    statutDiffusionUniteLegale: 'O'
    dateCreationUniteLegale: string
    categorieUniteLegale: 'PME'
    denominationUniteLegale: Nullable<string>
    sigleUniteLegale: null
    denominationUsuelle1UniteLegale: null
    sexeUniteLegale: Nullable<'M' | 'F'>
    nomUniteLegale: Nullable<string>
    nomUsageUniteLegale: null
    prenom1UniteLegale: Nullable<string>
    prenomUsuelUniteLegale: Nullable<string>
    activitePrincipaleUniteLegale: string
    nomenclatureActivitePrincipaleUniteLegale: 'NAFRev2'
    categorieJuridiqueUniteLegale: string
    nicSiegeUniteLegale: string
    trancheEffectifsUniteLegale: Nullable<string>
    caractereEmployeurUniteLegale: 'O' | 'N'
    economieSocialeSolidaireUniteLegale: 'N'
    dateDernierTraitementUniteLegale: string
  }
  adresseEtablissement: {
    complementAdresseEtablissement: null
    numeroVoieEtablissement: Nullable<string>
    indiceRepetitionEtablissement: null
    typeVoieEtablissement: Nullable<string>
    libelleVoieEtablissement: Nullable<string>
    codePostalEtablissement: Nullable<string>
    libelleCommuneEtablissement: Nullable<string>
    libelleCommuneEtrangerEtablissement: null
    distributionSpecialeEtablissement: null
    codeCommuneEtablissement: Nullable<string>
    codeCedexEtablissement: null
    libelleCedexEtablissement: null
    codePaysEtrangerEtablissement: null
    libellePaysEtrangerEtablissement: null
  }
  periodesEtablissement: Array<{
    dateFin: Nullable<string>
    dateDebut: string
    etatAdministratifEtablissement: 'A' | 'F'
    changementEtatAdministratifEtablissement: boolean
    enseigne1Etablissement: Nullable<string>
    enseigne2Etablissement: null
    enseigne3Etablissement: null
    changementEnseigneEtablissement: boolean
    denominationUsuelleEtablissement: Nullable<string>
    changementDenominationUsuelleEtablissement: boolean
    activitePrincipaleEtablissement: string
    nomenclatureActivitePrincipaleEtablissement: 'NAFRev2'
    changementActivitePrincipaleEtablissement: boolean
    caractereEmployeurEtablissement: 'O' | 'N'
    changementCaractereEmployeurEtablissement: boolean
  }>
}

const SURNAMES = ['MARTIN', 'BERNARD', 'DUBOIS', 'THOMAS', 'ROBERT', 'RICHARD', 'PETIT', 'DURAND', 'LEROY', 'MOREAU', 'SIMON', 'LAURENT']
const FIRST_NAMES: readonly (readonly [string, 'M' | 'F'])[] = [['MARIE', 'F'], ['JEAN', 'M'], ['PIERRE', 'M'], ['SOPHIE', 'F'], ['NICOLAS', 'M'], ['JULIE', 'F'], ['THOMAS', 'M'], ['CAMILLE', 'F']]

/** The sole trader a company of legal form 1000 is (the registry names none): from its SIREN, so always the same. */
export function soleTraderOf(siren: string): { nom: string; prenom: string; sexe: 'M' | 'F' } {
  const rng = rngFor(hashString(siren), 'person')
  const [prenom, sexe] = rng.pick(FIRST_NAMES)
  return { nom: rng.pick(SURNAMES), prenom, sexe }
}

/** "12 RUE VICTOR HUGO 33000 BORDEAUX" → number and street, as the registry writes its addresses. */
export function streetOf(address: string): { number: string | null; type: string | null; street: string | null } {
  const match = /^(\d+) (RUE|AVENUE|BOULEVARD|PLACE|CHEMIN|ALLEE) (.+?) \d{5}\b/.exec(address)
  return match ? { number: match[1] as string, type: match[2] === 'RUE' ? 'RUE' : (match[2] as string).slice(0, 3), street: match[3] as string } : { number: null, type: null, street: null }
}

/** A processing time of day, the same for the same SIRET and day. */
function processedAt(siret: string, day: string): string {
  const rng = rngFor(hashString(`${siret}|${day}`), 'processed')
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${day}T${pad(rng.int(1, 22))}:${pad(rng.int(0, 59))}:${pad(rng.int(0, 59))}.000`
}

interface SireneEvent {
  /** The day Sirene processed it (the flux's day). */
  processedOn: string
  /** Closed on this day; absent for a creation. */
  closedOn?: string
}

export function sireneEtablissement(history: HistoryCompany, event: SireneEvent): SireneEtablissement {
  const { company, sign, commune, naf } = history
  const siege = company.siege as Record<string, string | null>
  const siret = String(siege.siret)
  const siren = String(company.siren)
  const created = String(company.date_creation)
  const legalForm = String(company.nature_juridique)
  const band = String(company.tranche_effectif_salarie)
  const headcount = band === 'NN' ? null : band
  const employer = headcount !== null && headcount !== '00' ? 'O' : 'N'
  const processed = processedAt(siret, event.processedOn)
  const street = streetOf(String(siege.adresse ?? ''))
  const period = (from: string, to: string | null, state: 'A' | 'F', changed: boolean) => ({
    dateFin: to,
    dateDebut: from,
    etatAdministratifEtablissement: state,
    changementEtatAdministratifEtablissement: changed,
    enseigne1Etablissement: sign.toUpperCase(),
    enseigne2Etablissement: null,
    enseigne3Etablissement: null,
    changementEnseigneEtablissement: false,
    denominationUsuelleEtablissement: null,
    changementDenominationUsuelleEtablissement: false,
    activitePrincipaleEtablissement: naf,
    nomenclatureActivitePrincipaleEtablissement: 'NAFRev2' as const,
    changementActivitePrincipaleEtablissement: false,
    caractereEmployeurEtablissement: employer as 'O' | 'N',
    changementCaractereEmployeurEtablissement: false,
  })
  const periods = event.closedOn
    ? [period(event.closedOn, null, 'F', true), period(created, dayBefore(event.closedOn), 'A', false)]
    : [period(created, null, 'A', false)]
  return {
    siren,
    nic: siret.slice(9),
    siret,
    statutDiffusionEtablissement: 'O',
    dateCreationEtablissement: created,
    trancheEffectifsEtablissement: headcount,
    anneeEffectifsEtablissement: headcount ? String(Number(event.processedOn.slice(0, 4)) - 2) : null,
    activitePrincipaleRegistreMetiersEtablissement: null,
    dateDernierTraitementEtablissement: processed,
    etablissementSiege: true,
    nombrePeriodesEtablissement: periods.length,
    uniteLegale: uniteLegaleOf(history, { created, legalForm, headcount, employer, processed, nic: siret.slice(9) }),
    adresseEtablissement: {
      complementAdresseEtablissement: null,
      numeroVoieEtablissement: street.number,
      indiceRepetitionEtablissement: null,
      typeVoieEtablissement: street.type,
      libelleVoieEtablissement: street.street,
      codePostalEtablissement: siege.code_postal ?? null,
      libelleCommuneEtablissement: siege.libelle_commune ?? null,
      libelleCommuneEtrangerEtablissement: null,
      distributionSpecialeEtablissement: null,
      codeCommuneEtablissement: siege.commune ?? commune.code,
      codeCedexEtablissement: null,
      libelleCedexEtablissement: null,
      codePaysEtrangerEtablissement: null,
      libellePaysEtrangerEtablissement: null,
    },
    periodesEtablissement: periods,
  }
}

interface UnitFacts {
  created: string
  legalForm: string
  headcount: string | null
  employer: 'O' | 'N'
  processed: string
  nic: string
}

/** The legal unit: a company's denomination, or the sole trader's names. */
function uniteLegaleOf(history: HistoryCompany, facts: UnitFacts): SireneEtablissement['uniteLegale'] {
  const { company, naf } = history
  const { created, legalForm, headcount, employer, processed } = facts
  const person = legalForm === '1000' ? soleTraderOf(String(company.siren)) : null
  return {
    etatAdministratifUniteLegale: company.etat_administratif === 'C' ? 'C' : 'A',
    statutDiffusionUniteLegale: 'O',
    dateCreationUniteLegale: created,
    categorieUniteLegale: 'PME',
    denominationUniteLegale: person ? null : ((company.nom_raison_sociale as string | null) ?? String(company.nom_complet)),
    sigleUniteLegale: null,
    denominationUsuelle1UniteLegale: null,
    sexeUniteLegale: person?.sexe ?? null,
    nomUniteLegale: person?.nom ?? null,
    nomUsageUniteLegale: null,
    prenom1UniteLegale: person?.prenom ?? null,
    prenomUsuelUniteLegale: person?.prenom ?? null,
    activitePrincipaleUniteLegale: naf,
    nomenclatureActivitePrincipaleUniteLegale: 'NAFRev2',
    categorieJuridiqueUniteLegale: legalForm,
    nicSiegeUniteLegale: facts.nic,
    trancheEffectifsUniteLegale: headcount,
    caractereEmployeurUniteLegale: employer,
    economieSocialeSolidaireUniteLegale: 'N',
    dateDernierTraitementUniteLegale: processed,
  }
}

function dayBefore(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10)
}
