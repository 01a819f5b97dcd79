import { describe, expect, it } from 'vitest'
import { headcountBandLabel, legalCategoryLabel, nafLabel } from '#app/.server/enrichment/registry-labels.ts'
import { adminFrFields } from '#app/domain/lead-file-values.ts'

describe('registry code labels', () => {
  it('reads NAF rév. 2, legal category and headcount band codes', () => {
    expect(nafLabel('47.24Z')).toBe('Commerce de détail de pain, pâtisserie et confiserie en magasin spécialisé')
    expect(nafLabel('9602A')).toBe('Coiffure')
    expect(nafLabel('99.99X')).toBeNull()
    expect(legalCategoryLabel('5710')).toBe('SAS, société par actions simplifiée')
    // Codes without their own entry fall back to the level-II, then level-I heading.
    expect(legalCategoryLabel('5422')).toBe('Société à responsabilité limitée (SARL)')
    expect(legalCategoryLabel('7210')).toBe('Personne morale et organisme soumis au droit administratif')
    expect(legalCategoryLabel(null)).toBeNull()
    expect(headcountBandLabel('03')).toBe('6 à 9 salariés')
    expect(headcountBandLabel('NN')).toBe('Unité non employeuse')
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
    expect(adminFrFields({ results: [company] })).toMatchObject({
      naf_code: '10.71C',
      naf_label: 'Boulangerie et boulangerie-pâtisserie',
      legal_form: 'Société à responsabilité limitée (sans autre indication)',
      headcount: '6 à 9 salariés',
      administrative_state: 'closed',
      head_office_address: '12 RUE DE SIAM 29200 BREST',
      directors: 'JEAN LOUIS MARTIN (Gérant); CABINET AUDIT OUEST (Commissaire aux comptes titulaire)',
    })
    expect(adminFrFields({ results: [{ ...company, etat_administratif: 'A' }] }).administrative_state).toBe('active')
  })

  it('exports no personal data of a sole trader under diffusion partielle, even if an older match stored it', () => {
    const soleTrader = { ...company, nature_juridique: '1000', statut_diffusion: 'P', nom_raison_sociale: 'CLAIRE LE GALL', dirigeants: [{ nom: 'LE GALL', prenoms: 'CLAIRE' }] }
    const fields = adminFrFields({ results: [soleTrader] })
    expect(fields).toMatchObject({ legal_name: null, head_office_address: null, directors: null, siren: '812345676', naf_label: 'Boulangerie et boulangerie-pâtisserie' })
    // A company under partial diffusion keeps its (non-personal) name and directors.
    expect(adminFrFields({ results: [{ ...company, statut_diffusion: 'P' }] }).legal_name).toBe('BOULANGERIE MARTIN')
  })
})
