// `npm run bench`: every benchmark in turn, each printing its figures against its own baseline.
import { spawnSync } from 'node:child_process'

const benches = ['bench/search.ts', 'bench/enrichment.ts', 'bench/download.ts', 'bench/signin-flood.ts', 'bench/pages.ts', 'bench/api.ts', 'bench/durability.ts']
const only = process.argv.slice(2)
for (const file of benches.filter((name) => !only.length || only.some((o) => name.includes(o)))) {
  console.log(`\n=== ${file}`)
  const { status } = spawnSync(process.execPath, ['--import', 'tsx', file], { stdio: 'inherit' })
  if (status !== 0) process.exitCode = 1
}
