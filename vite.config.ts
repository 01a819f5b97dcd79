import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'
import { compression, defineAlgorithm } from 'vite-plugin-compression2'

/**
 * The browser's copy of the messages leaves out `developers`: the API reference (/developers) is rendered on the
 * server only and ships no script (root.tsx's DocumentHandle), so its texts (~4 KB brotli a language) would only
 * weigh on every other page's first load. The server build keeps every message.
 */
const serverOnlyMessages = {
  name: 'leadatlas:server-only-messages',
  enforce: 'pre' as const,
  applyToEnvironment: (environment: { name: string }) => environment.name === 'client',
  transform(code: string, id: string) {
    if (!/\/app\/locales\/(en|fr)\.json$/.test(id)) return null
    const { developers: _serverOnly, ...messages } = JSON.parse(code) as Record<string, unknown>
    return { code: JSON.stringify(messages), map: null }
  },
}

export default defineConfig({
  plugins: [
    serverOnlyMessages,
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
