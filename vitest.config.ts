import { defineConfig } from 'vitest/config'

/**
 * Two projects: `unit` (pure rules, no database: starts nothing) and `integration` (one embedded Postgres
 * and local auth server for the run, tests/support/global-setup.ts). `npx vitest run --project unit` is instant.
 */
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    testTimeout: 20_000,
    // No daily registry-events import in the tests' workers and servers (it would ask the public services); the
    // import's own tests turn it on against local fakes.
    env: { REGISTRY_EVENTS_IMPORT: 'off' },
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['app/**/*.test.{ts,tsx}', 'tests/unit/**/*.test.{ts,tsx}'] },
      },
      {
        extends: true,
        test: { name: 'integration', include: ['server/**/*.test.ts', 'tests/integration/**/*.test.ts'], globalSetup: ['tests/support/global-setup.ts'] },
      },
    ],
  },
})
