// What the cross-process limit tests share (global-limits, fair-shares): "processes" that are clients of their own
// (their own pool), only the database in common, and the upstreams each test starts, stopped after it.
import pg from 'pg'
import { afterAll, afterEach, inject } from 'vitest'
import { clearOverpassCache } from '#app/.server/sources/osm.ts'
import type { ResolvedCategory } from '#app/.server/sources/types.ts'
import type { CountingUpstream } from './counting-upstreams.ts'
import { fixtureServers } from './fixture-server.ts'

export const BAKERY: ResolvedCategory = { id: 'shop-bakery', label: 'Boulangerie', osm: { key: 'shop', value: 'bakery' }, googleType: 'bakery' }
export const city = (name: string) => ({ country: 'France', countryCode: 'FR', city: name, lang: 'fr' as const })

/** Registers the file's hooks; `processPool()` is one more process's own pool, `upstreams` what the test started. */
export function limitsHarness() {
  const pools: pg.Pool[] = []
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end().catch(() => undefined)))
  })
  const upstreams: CountingUpstream[] = []
  const { serve, stopAll } = fixtureServers()
  afterEach(async () => {
    await Promise.all(upstreams.splice(0).map((upstream) => upstream.stop()))
    await stopAll()
    clearOverpassCache()
  })
  function processPool(): pg.Pool {
    const pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 3 })
    pools.push(pool)
    return pool
  }
  return { processPool, upstreams, serve }
}
