/**
 * `npm start` (and `npm run dev` with --dev): the embedded default. Starts whatever the
 * environment does not provide — embedded Postgres under DATA_DIR, migrations, the local
 * auth server — then the demo websites, the app server and the in-process worker, and
 * prints the URL. Ctrl-C (SIGINT/SIGTERM) stops every part in reverse order.
 */
import path from 'node:path'
import getPort from 'get-port'
import { startDemoRegistry } from './demo/registry.ts'
import { startDemoWebsites } from './demo/websites.ts'
import { startLocalStack } from './stack.ts'
import { billingStartupNotice } from '#app/.server/billing/config.ts'
import { registerBillingJobs } from '#app/.server/billing/reload.ts'
import { startWorker } from './worker-slot.ts'
import { createHttpApp } from './http-app.ts'

const dev = process.argv.includes('--dev')
const host = process.env.HOST ?? '127.0.0.1'
const dataDir = path.resolve(process.env.DATA_DIR ?? '.data')
const log = (message: string) => console.log(`[leadatlas] ${message}`)

async function main() {
  process.env.NODE_ENV ??= dev ? 'development' : 'production'
  const port = await getPort({ port: Number(process.env.PORT ?? 3000), host })
  const appUrl = process.env.APP_URL ?? `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`

  const stack = await startLocalStack({ dataDir, siteUrl: appUrl, env: process.env, log })
  const stops: Array<() => Promise<void>> = [stack.stop]
  // The app reads its configuration from the environment (app/.server/env.ts).
  process.env.DATABASE_URL = stack.databaseUrl
  process.env.SUPABASE_URL = stack.supabaseUrl
  process.env.SUPABASE_ANON_KEY = stack.supabaseAnonKey
  process.env.APP_URL = appUrl

  // The demo lead source links its businesses to these local sites, so enrichment runs offline for real.
  if ((process.env.LEADS_SOURCE ?? 'demo') === 'demo' && !process.env.DEMO_WEBSITES_URL) {
    const demoSites = await startDemoWebsites({ port: process.env.DEMO_WEBSITES_PORT ? Number(process.env.DEMO_WEBSITES_PORT) : undefined, dataDir })
    stops.unshift(demoSites.stop)
    process.env.DEMO_WEBSITES_URL = demoSites.url
    log(`Demo websites (demo data) at ${demoSites.url}`)
  }

  // Enrichment offline with the demo source: the demo registry answers the French registry lookups (demo data),
  // and the crawler may reach the demo servers (exact host:port) on loopback, and nothing else private.
  const demoSource = (process.env.LEADS_SOURCE ?? 'demo') === 'demo'
  const ownDemoHosts: string[] = []
  if (demoSource && process.env.DEMO_WEBSITES_URL) ownDemoHosts.push(new URL(process.env.DEMO_WEBSITES_URL).host)
  if (demoSource && !process.env.REGISTRY_URL) {
    const registry = await startDemoRegistry({ port: process.env.DEMO_REGISTRY_PORT ? Number(process.env.DEMO_REGISTRY_PORT) : undefined, dataDir })
    stops.unshift(registry.stop)
    process.env.REGISTRY_URL = registry.url
    ownDemoHosts.push(new URL(registry.url).host)
    log(`Demo registry (demo data) at ${registry.url}`)
  }
  if (ownDemoHosts.length) {
    const allow = new Set([...(process.env.ENRICH_ALLOW_HOSTS ?? '').split(','), ...ownDemoHosts].map((h) => h.trim()).filter(Boolean))
    process.env.ENRICH_ALLOW_HOSTS = [...allow].join(',')
  }

  // The monthly credit reload runs as a scheduled job of the same worker.
  const worker = await startWorker({ log, registrations: [(boss) => registerBillingJobs(boss, { log })] })
  stops.unshift(worker.stop)

  const trustProxy = parseTrustProxy(process.env.TRUST_PROXY)
  let app
  if (dev) {
    const vite = await import('vite').then((v) => v.createServer({ server: { middlewareMode: true } }))
    stops.unshift(() => vite.close())
    app = createHttpApp({
      mode: 'development',
      appUrl,
      trustProxy,
      before: [vite.middlewares],
      build: () => vite.ssrLoadModule('virtual:react-router/server-build') as never,
    })
  } else {
    const buildDir = path.resolve('build')
    const build = await import(path.join(buildDir, 'server', 'index.js'))
    app = createHttpApp({ mode: 'production', appUrl, trustProxy, clientDir: path.join(buildDir, 'client'), build })
  }

  const server = app.listen(port, host)
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve)
    server.once('error', reject)
  })
  stops.unshift(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  )
  log(`LeadAtlas is running at ${appUrl}`)
  const billing = billingStartupNotice()
  if (billing.startsWith('WARNING')) console.warn(`\n[leadatlas] ${billing}\n`)
  else log(billing)
  if (stack.mailboxUrl) log(`Local mailbox (password-reset emails, this machine only): ${stack.mailboxUrl}`)
  else if (stack.local.auth) log('Password-reset emails go out through SMTP_URL')

  let stopping = false
  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    log(`${signal} received, stopping...`)
    for (const stop of stops) await stop().catch((error) => console.error(error))
    process.exit(0)
  }
  // A stray rejection in a background task (a closed socket, a job callback) must not stop every user's
  // service: log it. Requests have their own last-resort handler (server/http-app.ts).
  process.on('unhandledRejection', (reason) => console.error('[leadatlas] unhandled rejection:', reason))
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
}

/** TRUST_PROXY: `true`, a hop count (`1`) or Express's names/subnets (`loopback`); unset: no proxy. */
function parseTrustProxy(value: string | undefined): boolean | number | string {
  if (!value || value === 'false') return false
  if (value === 'true') return true
  return /^\d+$/.test(value) ? Number(value) : value
}

main().catch((error) => {
  console.error('[leadatlas] failed to start:', error)
  process.exit(1)
})
