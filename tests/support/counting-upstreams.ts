/**
 * Loopback upstreams that count the requests in flight on their side (from arrival to answer): what a global limit
 * promises the website or the API, measured where it matters, whatever the clients believe they hold.
 */
import { type FixtureServer, startFixtureServer } from './fixture-server.ts'

export interface CountingUpstream extends FixtureServer {
  /** Requests in flight now, and the most at once so far. */
  inFlight: () => number
  peak: () => number
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function counting(delayMs: number, answer: (path: string) => { status?: number; headers?: Record<string, string>; body?: string }): Promise<CountingUpstream> {
  let now = 0
  let most = 0
  const server = await startFixtureServer(async (request) => {
    now++
    most = Math.max(most, now)
    try {
      await sleep(delayMs)
      return answer(request.path)
    } finally {
      now--
    }
  })
  return { ...server, inFlight: () => now, peak: () => most }
}

/** A website whose every page links to a contact, a legal and an about page (a crawl reads 4 pages); no robots.txt. */
export function countingWebsite(delayMs: number): Promise<CountingUpstream> {
  return counting(delayMs, (path) => {
    if (path === '/robots.txt') return { status: 404 }
    const html = `<html><body><a href="contact">Contact</a> <a href="mentions-legales">Mentions légales</a> <a href="a-propos">À propos</a>
      <p>page ${path}</p></body></html>`
    return { headers: { 'Content-Type': 'text/html' }, body: html }
  })
}

/** An Overpass interpreter that finds nothing, slowly. */
export function countingOverpass(delayMs: number): Promise<CountingUpstream> {
  return counting(delayMs, () => ({ headers: { 'Content-Type': 'application/json' }, body: '{"version":0.6,"elements":[]}' }))
}
