import { describe, expect, it } from 'vitest'
import { LEGAL_CATEGORIES, LEGAL_CATEGORY_HEADINGS_LEVEL_1, LEGAL_CATEGORY_HEADINGS_LEVEL_2 } from '#app/.server/enrichment/registry-legal-categories.ts'
import { administrativeStateLabel, headcountBandLabel, legalCategoryLabel, nafLabel, readableRegistryInfo } from '#app/.server/enrichment/registry-labels.ts'
import { adminFrFields } from '#app/domain/lead-file-values.ts'

describe('registry code labels', () => {
  it('reads NAF rév. 2 codes (French only, as INSEE publishes them)', () => {
    expect(nafLabel('47.24Z')).toBe('Commerce de détail de pain, pâtisserie et confiserie en magasin spécialisé')
    expect(nafLabel('9602A')).toBe('Coiffure')
    expect(nafLabel('99.99X')).toBeNull()
  })

  it('labels every level-III legal category, and falls back to the level-II then level-I heading', () => {
    expect(legalCategoryLabel('5499')).toBe('Société à responsabilité limitée (sans autre indication)')
    expect(legalCategoryLabel('5710')).toBe('SAS, société par actions simplifiée')
    expect(legalCategoryLabel('1000')).toBe('Entrepreneur individuel')
    expect(legalCategoryLabel('5422')).toBe("SARL immobilière pour le commerce et l'industrie (SICOMI)")
    expect(legalCategoryLabel('7210')).toBe('Commune et commune nouvelle')
    expect(legalCategoryLabel('8311')).toBe("Comité social économique d'établissement")
    // Retired codes older records carry keep their label.
    expect(legalCategoryLabel('5720')).toBe('Société par actions simplifiée à associé unique ou société par actions simplifiée unipersonnelle')
    // Unknown codes: the level-II heading, else the level-I one.
    expect(legalCategoryLabel('5798')).toBe('Société par actions simplifiée')
    expect(legalCategoryLabel('7999')).toBe('Personne morale et organisme soumis au droit administratif')
    expect(legalCategoryLabel(null)).toBeNull()
    expect(legalCategoryLabel('57')).toBeNull()
  })

  it('has a well-formed table: 4-digit codes under a known heading, labels trimmed', () => {
    const codes = Object.keys(LEGAL_CATEGORIES)
    expect(codes.length).toBeGreaterThanOrEqual(260)
    for (const code of codes) {
      expect(code).toMatch(/^\d{4}$/)
      expect(LEGAL_CATEGORY_HEADINGS_LEVEL_2[code.slice(0, 2)], code).toBeDefined()
      expect(LEGAL_CATEGORY_HEADINGS_LEVEL_1[code.slice(0, 1)], code).toBeDefined()
      expect(LEGAL_CATEGORIES[code]).toBe(LEGAL_CATEGORIES[code]?.trim())
    }
  })

  it('reads headcount bands and administrative states in the file language', () => {
    expect(headcountBandLabel('03', 'fr')).toBe('6 à 9 salariés')
    expect(headcountBandLabel('03', 'en')).toBe('6 to 9 employees')
    expect(headcountBandLabel('NN', 'fr')).toBe('Unité non employeuse')
    expect(headcountBandLabel('99', 'en')).toBeNull()
    expect(['A', 'F', 'C'].map((code) => administrativeStateLabel(code, 'fr'))).toEqual(['Actif', 'Fermé', 'Cessée'])
    expect(['A', 'F', 'C'].map((code) => administrativeStateLabel(code, 'en'))).toEqual(['Active', 'Closed', 'Ceased'])
  })
})

describe('labels of a match stored before they existed', () => {
  // The shape a lookup stored before labels were read at download time: codes only, or French labels stored.
  const oldShape = {
    confidence: 0.9,
    results: [{ siren: '812345676', activite_principale: '10.71C', nature_juridique: '5460', tranche_effectif_salarie: '11', etat_administratif: 'F' }],
  }
  const storedInFrench = { results: [{ ...oldShape.results[0], tranche_effectif_salarie_libelle: '10 à 19 salariés', nature_juridique_libelle: 'Société à responsabilité limitée (SARL)' }] }

  it('reads like a new match, in the file language', () => {
    expect(adminFrFields(readableRegistryInfo(oldShape, 'en'))).toMatchObject({
      naf_label: 'Boulangerie et boulangerie-pâtisserie',
      legal_form: 'Autre SARL coopérative',
      headcount: '10 to 19 employees',
      administrative_state: 'Closed',
    })
    expect(adminFrFields(readableRegistryInfo(storedInFrench, 'en'))).toMatchObject({ legal_form: 'Autre SARL coopérative', headcount: '10 to 19 employees' })
    expect(adminFrFields(readableRegistryInfo(oldShape, 'fr'))).toMatchObject({ headcount: '10 à 19 salariés', administrative_state: 'Fermé' })
  })

  it('keeps a stored label whose code has none, and leaves anything else as it is', () => {
    const odd = { results: [{ tranche_effectif_salarie: 'ZZ', tranche_effectif_salarie_libelle: 'Stored label' }] }
    expect(adminFrFields(readableRegistryInfo(odd, 'en')).headcount).toBe('Stored label')
    expect(readableRegistryInfo(null, 'fr')).toBeNull()
  })
})

describe('registry file fields', () => {
  const company = {
    siren: '812345676',
    nature_juridique: '5499',
    nature_juridique_libelle: 'Société à responsabilité limitée (sans autre indication)',
    activite_principale: '10.71C',
    activite_principale_libelle: 'Boulangerie et boulangerie-pâtisserie',
    tranche_effectif_salarie: '03',
    tranche_effectif_salarie_libelle: '6 à 9 salariés',
    etat_administratif: 'C',
    siege_adresse: '12 RUE DE SIAM 29200 BREST',
    nom_raison_sociale: 'BOULANGERIE MARTIN',
    dirigeants: [
      { nom: 'MARTIN', prenoms: 'JEAN LOUIS', qualite: 'Gérant' },
      { denomination: 'CABINET AUDIT OUEST', qualite: 'Commissaire aux comptes titulaire' },
    ],
    confidence: 0.9,
  }

  it('exports labels, the state, the head office and the directors as readable cells', () => {
    expect(adminFrFields(readableRegistryInfo({ results: [company] }, 'fr'))).toMatchObject({
      naf_code: '10.71C',
      naf_label: 'Boulangerie et boulangerie-pâtisserie',
      legal_form: 'Société à responsabilité limitée (sans autre indication)',
      headcount: '6 à 9 salariés',
      administrative_state: 'Cessée',
      head_office_address: '12 RUE DE SIAM 29200 BREST',
      directors: 'JEAN LOUIS MARTIN (Gérant); CABINET AUDIT OUEST (Commissaire aux comptes titulaire)',
    })
    expect(adminFrFields(readableRegistryInfo({ results: [{ ...company, etat_administratif: 'A' }] }, 'en')).administrative_state).toBe('Active')
  })

  it('exports no personal data of a sole trader under diffusion partielle, even if an older match stored it', () => {
    const soleTrader = { ...company, nature_juridique: '1000', statut_diffusion: 'P', nom_raison_sociale: 'CLAIRE LE GALL', dirigeants: [{ nom: 'LE GALL', prenoms: 'CLAIRE' }] }
    const fields = adminFrFields({ results: [soleTrader] })
    expect(fields).toMatchObject({ legal_name: null, head_office_address: null, directors: null, siren: '812345676', naf_label: 'Boulangerie et boulangerie-pâtisserie' })
    // A company under partial diffusion keeps its (non-personal) name and directors.
    expect(adminFrFields({ results: [{ ...company, statut_diffusion: 'P' }] }).legal_name).toBe('BOULANGERIE MARTIN')
  })
})
