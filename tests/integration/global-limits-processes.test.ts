// Two OS processes (tests/support/limits-process.ts: the real crawler and OSM source, the deployment's limits on the
// test database) crawl one website and query one Overpass at the same time; the upstreams count what reaches them.
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import readline from 'node:readline'
import { afterEach, describe, expect, inject, it } from 'vitest'
import { countingOverpass, countingWebsite, type CountingUpstream } from '#tests/support/counting-upstreams.ts'

const children: ChildProcess[] = []
const upstreams: CountingUpstream[] = []
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill()
  await Promise.all(upstreams.splice(0).map((upstream) => upstream.stop()))
})

interface Outcome {
  pages: number[]
  areas: number[]
}

/** Starts one process; resolves once it is ready, with a function that starts it and waits for its outcome. */
async function deploymentProcess(env: Record<string, string>): Promise<() => Promise<Outcome>> {
  const child = spawn('npx', ['tsx', 'tests/support/limits-process.ts'], {
    env: { ...process.env, DATABASE_URL: inject('databaseUrl'), ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  children.push(child)
  const lines = readline.createInterface({ input: child.stdout! })[Symbol.asyncIterator]()
  const first = await lines.next()
  if (first.value !== 'ready') throw new Error(`the process did not start: ${String(first.value)}`)
  return async () => {
    child.stdin!.write('go\n')
    const outcome = await lines.next()
    await once(child, 'exit')
    return JSON.parse(String(outcome.value)) as Outcome
  }
}

describe('two processes of one deployment', () => {
  it('keep 2 requests in flight per website and 2 queries in flight at Overpass, measured at the servers', async () => {
    const [site, overpass] = await Promise.all([countingWebsite(80), countingOverpass(250)])
    upstreams.push(site, overpass)
    const shared = { SITE_URL: site.url, OVERPASS_URL: `${overpass.url}/api/interpreter`, CRAWLS: '6', QUERIES: '3' }
    const starts = await Promise.all([
      deploymentProcess({ ...shared, LABEL: 'a', FIRST_CITY: '0' }),
      deploymentProcess({ ...shared, LABEL: 'b', FIRST_CITY: '3' }),
    ])
    const outcomes = await Promise.all(starts.map((start) => start()))
    for (const outcome of outcomes) {
      expect(outcome.pages).toEqual([4, 4, 4, 4, 4, 4])
      expect(outcome.areas).toEqual([0, 0, 0])
    }
    // 12 crawls of 4 pages + one robots.txt per process; 6 distinct areas.
    expect(site.requests).toHaveLength(2 * (6 * 4 + 1))
    expect(overpass.requests).toHaveLength(6)
    expect(site.peak()).toBe(2)
    expect(overpass.peak()).toBe(2)
  }, 90_000)
})
