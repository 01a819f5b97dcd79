// Which packages and modules fill a client chunk (a helper for bench/pages.ts findings, not a benchmark):
//   npx react-router build --sourcemapClient && npx tsx bench/chunk-sources.ts entry.client jsx-runtime search-
// Bytes are the minified characters each source maps to; rebuild without source maps afterwards.
import fs from 'node:fs'
import { SourceMapConsumer } from 'source-map-js'
for (const name of process.argv.slice(2)) {
  const file = fs.readdirSync('build/client/assets').find((f) => f.startsWith(name) && f.endsWith('.js'))!
  const code = fs.readFileSync('build/client/assets/' + file, 'utf8')
  const map = new SourceMapConsumer(JSON.parse(fs.readFileSync('build/client/assets/' + file + '.map', 'utf8')))
  const lines = code.split('\n')
  const sizes = new Map<string, number>()
  let prev: { line: number; col: number; src: string } | null = null
  const add = (src: string, n: number) => sizes.set(src, (sizes.get(src) ?? 0) + n)
  map.eachMapping((m) => {
    if (prev && prev.line === m.generatedLine) add(prev.src, m.generatedColumn - prev.col)
    else if (prev) add(prev.src, lines[prev.line - 1]!.length - prev.col)
    prev = { line: m.generatedLine, col: m.generatedColumn, src: (m.source ?? '?').replace(/.*node_modules\//, 'nm/').replace(/^(nm\/(@[^/]+\/)?[^/]+).*/, '$1') }
  })
  const byPkg = [...sizes].sort((a, b) => b[1] - a[1]).slice(0, 12)
  console.log(file, code.length)
  for (const [src, n] of byPkg) console.log('   ', n, src)
}
