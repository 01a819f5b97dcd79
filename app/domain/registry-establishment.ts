/**
 * One establishment of the local registry store (registry_establishments), as every feed writes it: the Sirene
 * daily flux, the monthly stock file and the demo universe. Pure: the feeds map their records to this shape, the
 * watch and the "created after" filter read it back.
 */
export interface RegistryEstablishmentRecord {
  siret: string
  siren: string
  name: string
  /** NAF rév. 2 as Sirene writes it ("10.71C"). */
  naf: string | null
  /** Catégorie juridique of the unité légale ("5710"; "1000" = sole trader). */
  legalForm: string | null
  /** Tranche d'effectifs ("00".."53"), null when not filled in ("NN"). */
  headcount: string | null
  postcode: string | null
  /** Code officiel géographique of the commune ("69123"). */
  commune: string | null
  city: string | null
  address: string | null
  state: 'A' | 'F'
  /** YYYY-MM-DD. */
  createdOn: string | null
  headOffice: boolean
  /** When Sirene last processed it (ISO); the newest processing wins in the store. */
  processedAt: string
  /**
   * Statut de diffusion "P": the person asked INSEE not to spread their data, which may then not be used for
   * prospecting (the Sirene files' terms). Kept for the risk shield, never delivered as a lead.
   */
  partialDiffusion?: boolean
}

/**
 * The department of a commune code: Corsica's 2A/2B and the overseas 97x keep their own codes ("2A004" → "2A",
 * "97105" → "971"), every other department is the code's first two digits.
 */
export function departmentOfCommune(commune: string | null | undefined): string | null {
  if (!commune || !/^(\d{5}|2[AB]\d{3})$/.test(commune)) return null
  return commune.startsWith('97') || commune.startsWith('98') ? commune.slice(0, 3) : commune.slice(0, 2)
}
