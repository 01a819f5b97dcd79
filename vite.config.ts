import fs from 'node:fs'
import path from 'node:path'
import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'
import { compression, defineAlgorithm } from 'vite-plugin-compression2'

/**
 * The browser's copy of the messages (the chunk every page loads, app/i18n.ts loadMessages) holds only the namespaces
 * of the signed-out pages: sign-in, sign-up, reset password, sign-out, error pages. /login is a new visitor's first
 * page, on any connection: it need not bring the texts of the whole app (~9 KB brotli). The signed-in pages'
 * namespaces come as page bundles (below), and what only the server writes never reaches the browser: `developers`
 * (the API reference, /developers, is rendered on the server only and ships no script: root.tsx's DocumentHandle),
 * `emails` (app/.server/email/templates.ts) and `api` (the public API's problem details). The server build keeps
 * every message.
 */
const SIGNED_OUT_NAMESPACES = ['app', 'auth', 'authPanel', 'common', 'errorPage', 'header', 'logout', 'nav', 'notFound', 'pages', 'rateLimit', 'resetPassword', 'settings']
const SERVER_ONLY_NAMESPACES = ['developers', 'emails', 'api']

const serverOnlyMessages = {
  name: 'leadatlas:server-only-messages',
  enforce: 'pre' as const,
  applyToEnvironment: (environment: { name: string }) => environment.name === 'client',
  transform(code: string, id: string) {
    if (!/\/app\/locales\/(en|fr)\.json$/.test(id)) return null
    const messages = JSON.parse(code) as Record<string, unknown>
    for (const namespace of Object.keys(messages)) if (!SIGNED_OUT_NAMESPACES.includes(namespace)) delete messages[namespace]
    return { code: JSON.stringify(messages), map: null }
  },
}

/**
 * Page bundles (app/i18n.ts PAGE_MESSAGES), served as `virtual:page-messages/<language>/<bundle>`, a chunk the route
 * modules that need it load: the texts of one page each (`companies`, `webhooks`, `apiSettings`, left out of the other signed-in
 * pages' first load too), and `signedIn`, every other namespace the browser needs (app-layout.tsx and the sandbox
 * billing pages load it). A new namespace lands in `signedIn`: a signed-out page that needs it must list it above.
 */
const SINGLE_PAGE_NAMESPACES = ['companies', 'webhooks', 'apiSettings', 'team', 'billing', 'doNotContact', 'integrations', 'lists', 'subscription']
function bundleNamespaces(bundle: string, all: string[]): string[] {
  if (SINGLE_PAGE_NAMESPACES.includes(bundle)) return [bundle]
  if (bundle === 'signedIn') return all.filter((namespace) => ![...SIGNED_OUT_NAMESPACES, ...SERVER_ONLY_NAMESPACES, ...SINGLE_PAGE_NAMESPACES].includes(namespace))
  throw new Error(`${bundle} is not a page bundle of messages (vite.config.ts)`)
}
const PAGE_MESSAGES_ID = /^virtual:page-messages\/(en|fr)\/(\w+)$/
const pageMessages = {
  name: 'leadatlas:page-messages',
  resolveId: (id: string) => (PAGE_MESSAGES_ID.test(id) ? `\0${id}` : null),
  load(this: { addWatchFile: (file: string) => void }, id: string) {
    const match = PAGE_MESSAGES_ID.exec(id.replace(/^\0/, ''))
    if (!match || !id.startsWith('\0')) return null
    const [, language, bundle] = match
    const file = path.resolve('app/locales', `${language}.json`)
    this.addWatchFile(file)
    const messages = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>
    const namespaces = bundleNamespaces(bundle!, Object.keys(messages))
    return `export default ${JSON.stringify(Object.fromEntries(namespaces.map((namespace) => [namespace, messages[namespace]])))}`
  },
}

export default defineConfig({
  plugins: [
    serverOnlyMessages,
    pageMessages,
    tailwindcss(),
    reactRouter(),
    // Scripts and styles are precompressed once at build time at the highest levels (brotli 11 is
    // ~20 % smaller than on-the-fly gzip, and far too slow to run per request); server/http-app.ts
    // serves the .br/.gz file the browser accepts. Only the client build is served this way.
    {
      ...compression({
        include: /\.(js|mjs|css|svg|json)$/,
        threshold: 0,
        algorithms: [defineAlgorithm('brotliCompress'), defineAlgorithm('gzip', { level: 9 })],
      }),
      applyToEnvironment: (environment) => environment.name === 'client',
    },
  ],
  resolve: { tsconfigPaths: true },
  build: {
    rolldownOptions: {
      // A zod schema is built by calls the bundler cannot prove harmless, so a module that pairs
      // schemas with constants (app/domain/search-filters.ts) would bring zod to every page that
      // reads a constant. Building a schema has no side effect: an unused one is dropped, and with
      // it zod, from the browser's chunks (the server uses them all).
      treeshake: { manualPureFunctions: ['z'] },
    },
  },
})
