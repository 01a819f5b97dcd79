// Search benchmarks (issue: search): server-side preview latency for the demo source and the
// category lookup, each against a naive baseline measured in the same run.
//   npx tsx bench/search.ts
import { performance } from 'node:perf_hooks'
import { filterCategories } from '#app/domain/categories.ts'
import { normalizeForSearch, rankMatch } from '#app/domain/text.ts'
import { findCategory, listCategories } from '#app/.server/taxonomy/categories.ts'
import { resolveCategory, runPreview } from '#app/.server/search/preview.ts'
import { createDemoSource } from '#app/.server/sources/demo/source.ts'
import { env } from '#app/.server/env.server.ts'
import type { SearchCriteria } from '#app/domain/search.ts'
import { resolveCriteria, searchParamsOf } from '#app/.server/search/resolve-criteria.ts'
import { printTable } from './lib/table.ts'

/** The baseline reads the same resolved search the preview does. */
function resolvedSearch(criteria: SearchCriteria) {
  const resolution = resolveCriteria(criteria)
  if (!resolution.ok) throw new Error(`bench search refused: ${resolution.field}`)
  return searchParamsOf(resolution.criteria, 'fr')
}

function percentile(samples: number[], p: number) {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

async function measure(label: string, iterations: number, fn: (i: number) => Promise<unknown> | unknown) {
  for (let i = 0; i < Math.min(20, iterations); i++) await fn(i) // warm-up: lazy datasets, JIT
  const samples: number[] = []
  for (let i = 0; i < iterations; i++) {
    const start = performance.now()
    await fn(i)
    samples.push(performance.now() - start)
  }
  return [label, iterations, round(percentile(samples, 50)), round(percentile(samples, 95)), round(Math.max(...samples))]
}

const round = (ms: number) => Math.round(ms * 1000) / 1000

const SEARCHES: SearchCriteria[] = [
  { sector: 'shop-bakery', country: 'France', region: 'Île-de-France', department: 'Paris', city: '' },
  { sector: 'restaurant', country: 'France', region: 'Auvergne-Rhône-Alpes', department: 'Rhône', city: 'Lyon' },
  { sector: 'dentist', country: 'France', region: 'Bretagne', department: 'Finistère', city: '' },
  { sector: 'Vintage synth repair', country: 'France', region: 'Occitanie', department: 'Haute-Garonne', city: '' },
]

process.env.DEMO_WEBSITES_URL ??= 'http://127.0.0.1:9'
const rows = []

// Preview: the real path (plan rule + lazy source, stops after 20) vs a naive one that builds the
// whole result set of the area, then keeps the first 20.
rows.push(await measure('preview (demo, runPreview)', 400, (i) => runPreview(SEARCHES[i % SEARCHES.length]!, { lang: 'fr', plan: 'premium' })))
const demo = createDemoSource({ websitesBaseUrl: env.DEMO_WEBSITES_URL })
rows.push(
  await measure('preview baseline (all results, then 20)', 100, async (i) => {
    const criteria = SEARCHES[i % SEARCHES.length]!
    const all = []
    for await (const business of demo.search(resolvedSearch(criteria), resolveCategory(criteria.sector, 'fr'), {})) all.push(business)
    return all.slice(0, 20)
  }),
)

// Category lookup: the picker's filter (both languages' labels and the presets' terms, normalised
// once per option, one `includes` on the joined keys rejecting most options) vs normalising and
// ranking every key on every keystroke.
const options = [...listCategories('fr')]
const queries = ['b', 'bou', 'boulang', 'bakery', 'cafe', 'pâtis', 'den', 'rest', 'coiff', 'xyz', 'gar', 'cabinet dentaire']
rows.push(await measure('category filter (filterCategories)', 5000, (i) => filterCategories(options, queries[i % queries.length]!, { limit: 50 })))
rows.push(
  await measure('category baseline (normalise each time)', 5000, (i) => {
    const q = normalizeForSearch(queries[i % queries.length]!)
    return options
      .filter((option) => [option.label, option.otherLabel, ...option.terms, ...option.otherTerms].some((key) => rankMatch(normalizeForSearch(key), q) !== null))
      .slice(0, 50)
  }),
)
rows.push(await measure('free text → category (findCategory)', 5000, (i) => findCategory(queries[i % queries.length]!, 'en')))
rows.push(await measure('GET /api/categories payload (listCategories)', 5000, () => listCategories('en')))

console.log(`\nSearch benchmarks (${new Date().toISOString()}, Node ${process.version}, ${SEARCHES.length} searches rotating)\n`)
printTable(['scenario', 'runs', 'p50 ms', 'p95 ms', 'max ms'], rows)
