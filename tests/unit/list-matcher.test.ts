// The row matcher's rules that need no database (app/.server/lists/match.ts), with a registry and a map of our own:
// the order identifiers are tried in, what a match carries, and that a business comes back once — a second row that
// lands on it keeps its own line as "same company", nothing to enrich.
import { describe, expect, it } from 'vitest'
import type { Enrichers } from '#app/.server/exports/enrichers.ts'
import type { ListRow } from '#app/.server/lists/list-rows.ts'
import { createListMatcher } from '#app/.server/lists/match.ts'
import type { LeadSource } from '#app/.server/sources/types.ts'

const COMPANY = { siren: '732829320', siret: '73282932000009', nom_complet: 'BOULANGERIE MARTIN', code_postal: '29200', commune: 'Brest', activite_principale: '10.71C', etat_administratif: 'A' }

function row(line: number, fields: Partial<ListRow>): ListRow {
  return { name: null, domain: null, siren: null, siret: null, address: null, postalCode: null, city: null, phone: null, email: null, country: null, countryCode: null, cells: [`row ${line}`], notes: [], line, ...fields }
}

function matcher(lookups: string[], { reachable = true } = {}) {
  const enrichers: Pick<Enrichers, 'lookupRegistry' | 'reachSite'> = {
    async lookupRegistry(query) {
      lookups.push(query.siret ?? query.siren ?? query.name)
      if (query.name.startsWith('Inconnue') && !query.siret) return { status: 'not_found' }
      return { status: 'success', info: { results: [COMPANY], confidence: query.siret ? 1 : 0.8, matched_by: query.siret ? 'siret' : 'name_postcode' } }
    },
    reachSite: async (url) => (reachable ? url : null),
  }
  const source: LeadSource = { name: 'demo', scope: 'test', search: async function* () {} } as unknown as LeadSource
  return createListMatcher({ enrichers, source, listId: 'list-1', websiteColumn: 0, lang: 'fr' })
}

describe('createListMatcher', () => {
  it('matches by SIRET first, with the registry data, and by the site itself when the row gives only a website', async () => {
    const lookups: string[] = []
    const match = matcher(lookups)
    const bySiret = await match.match(row(2, { siret: COMPANY.siret, siren: COMPANY.siren }))
    expect(bySiret).toMatchObject({ placeId: 'registry-73282932000009', name: 'BOULANGERIE MARTIN', listMatch: { kind: 'siret', status: 'matched', confidence: 1, line: 2 }, adminFrInfo: { matched_by: 'siret' } })
    const bySite = await match.match(row(3, { domain: 'fournil.fr', cells: ['https://www.fournil.fr/contact'] }))
    expect(bySite).toMatchObject({ source: 'list', placeId: 'site:fournil.fr', website: 'https://www.fournil.fr/contact', listMatch: { kind: 'domain', status: 'matched', confidence: 0.9, givenWebsite: true } })
    expect(lookups).toEqual([COMPANY.siret])
  })

  it('gives a business once: a second row landing on it is "same company", with its own line and lead', async () => {
    const match = matcher([])
    const first = await match.match(row(2, { name: 'Boulangerie Martin', postalCode: '29200' }))
    const second = await match.match(row(5, { name: 'Boulangerie Martin SARL', postalCode: '29200' }))
    expect(first.listMatch).toMatchObject({ kind: 'name', status: 'matched' })
    expect(second).toMatchObject({ source: 'list', placeId: 'row:list-1:5', listCells: ['row 5'], listMatch: { status: 'same_company', sameAs: 2, line: 5 } })
    // The first row asked again (a retried run) is still the one that brought it.
    expect((await match.match(row(2, { name: 'Boulangerie Martin', postalCode: '29200' }))).listMatch.status).toBe('matched')
  })

  it('says "not found" for a row nothing matches: a dead site with no name, an unknown name', async () => {
    const match = matcher([], { reachable: false })
    expect((await match.match(row(2, { domain: 'ferme.fr', cells: ['ferme.fr'] }))).listMatch).toMatchObject({ kind: 'domain', status: 'not_found', confidence: null })
    expect(await match.match(row(3, { name: 'Inconnue du registre', postalCode: '29200' }))).toMatchObject({ placeId: 'row:list-1:3', listMatch: { kind: 'name', status: 'not_found' } })
  })
})
