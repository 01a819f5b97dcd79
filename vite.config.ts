import fs from 'node:fs'
import path from 'node:path'
import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'
import { compression, defineAlgorithm } from 'vite-plugin-compression2'

/**
 * The browser's copy of the messages leaves out what only the server writes: `developers` (the API reference,
 * /developers, is rendered on the server only and ships no script: root.tsx's DocumentHandle; ~4 KB brotli a
 * language), `emails` (app/.server/email/templates.ts) and `api` (the public API's problem details). They would only
 * weigh on every page's first load. The server build keeps every message.
 */
const serverOnlyMessages = {
  name: 'leadatlas:server-only-messages',
  enforce: 'pre' as const,
  applyToEnvironment: (environment: { name: string }) => environment.name === 'client',
  transform(code: string, id: string) {
    if (!/\/app\/locales\/(en|fr)\.json$/.test(id)) return null
    const messages = JSON.parse(code) as Record<string, unknown>
    for (const namespace of [...SERVER_ONLY_NAMESPACES, ...PAGE_NAMESPACES]) delete messages[namespace]
    return { code: JSON.stringify(messages), map: null }
  },
}

const SERVER_ONLY_NAMESPACES = ['developers', 'emails', 'api']
/**
 * Namespaces of one page each (app/i18n.ts PAGE_MESSAGES): left out of every page's messages above, and served as
 * `virtual:page-messages/<language>/<namespace>`, a chunk the page's route module loads.
 */
const PAGE_NAMESPACES = ['companies', 'webhooks']
const PAGE_MESSAGES_ID = /^virtual:page-messages\/(en|fr)\/(\w+)$/
const pageMessages = {
  name: 'leadatlas:page-messages',
  resolveId: (id: string) => (PAGE_MESSAGES_ID.test(id) ? `\0${id}` : null),
  load(this: { addWatchFile: (file: string) => void }, id: string) {
    const match = PAGE_MESSAGES_ID.exec(id.replace(/^\0/, ''))
    if (!match || !id.startsWith('\0')) return null
    const [, language, namespace] = match
    if (!PAGE_NAMESPACES.includes(namespace!)) throw new Error(`${namespace} is not a page namespace (vite.config.ts)`)
    const file = path.resolve('app/locales', `${language}.json`)
    this.addWatchFile(file)
    const messages = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>
    return `export default ${JSON.stringify(messages[namespace!] ?? {})}`
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
