import { defineConfig, devices } from '@playwright/test'

/**
 * End-to-end tests: every spec runs twice, with JavaScript (hydrated app) and without it
 * (plain HTML forms, ARCHITECTURE §6). The production build (`npm run test:e2e` builds first)
 * is served on the embedded stack with a fresh data directory, so each run starts empty.
 */
const PORT = Number(process.env.E2E_PORT ?? 3100)
const baseURL = `http://127.0.0.1:${PORT}`
const DATA_DIR = `.data/e2e-${PORT}`
// Pinned so specs can reach the e2e database for set-up (tests/e2e/support/db.ts).
const POSTGRES_PORT = Number(process.env.E2E_POSTGRES_PORT ?? 54400)
// Pinned so specs can read reset emails from the local mailbox (tests/e2e/support/outbox.ts).
const MAILBOX_PORT = Number(process.env.E2E_MAILBOX_PORT ?? 54410)
// tests/e2e/webhooks.spec.ts receives deliveries on these loopback ports (one per project, both allow-listed).
const WEBHOOK_PORT = Number(process.env.E2E_WEBHOOK_PORT ?? PORT + 5)
// The CRM fakes (tests/support/crm-fakes/serve.ts): HubSpot on it, Pipedrive on it + 1, ready on it + 2.
const CRM_FAKES_PORT = Number(process.env.E2E_CRM_FAKES_PORT ?? PORT + 20)
process.env.E2E_WEBHOOK_PORT = String(WEBHOOK_PORT)

// Debian's Chromium: Playwright's own browser downloads do not work on these machines.
const launchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
}

export default defineConfig({
  testDir: './tests/e2e',
  outputDir: './test-results',
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  workers: 2, // 2-core machines; the server shares them
  retries: process.env.CI ? 1 : 0,
  // Generous: the 2-core machines are often busy with other work (builds, benchmarks).
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL,
    locale: 'en-US',
    viewport: { width: 1440, height: 900 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
  },
  projects: [
    {
      name: 'chromium-js',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1440, height: 900 }, launchOptions, javaScriptEnabled: true },
    },
    {
      name: 'chromium-nojs',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1440, height: 900 }, launchOptions, javaScriptEnabled: false },
    },
  ],
  webServer: [
    {
      command: `npx tsx tests/support/crm-fakes/serve.ts --port ${CRM_FAKES_PORT}`,
      url: `http://127.0.0.1:${CRM_FAKES_PORT + 2}`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: `rm -rf ${DATA_DIR} && npm run serve`,
      env: {
        ...(process.env as Record<string, string>),
        DATA_DIR,
        PORT: String(PORT),
        POSTGRES_PORT: String(POSTGRES_PORT),
        MAILBOX_PORT: String(MAILBOX_PORT),
        // Every spec signs its users up and in, and asks for reset emails, from 127.0.0.1: raise those per-IP
        // limits, keep the others (per account, per address, per user) strict.
        RATE_LIMIT_SIGNUP_IP: '100000/60',
        RATE_LIMIT_SIGNUP_NETWORK: '100000/60',
        RATE_LIMIT_SIGNUP_GLOBAL: '100000/60',
        RATE_LIMIT_TOKEN_IP: '100000/60',
        RATE_LIMIT_FORGOT_IP: '100000/60',
        // Specs call /api/v1 with wrong keys on purpose (route-fuzz) while others use good keys from the same address.
        RATE_LIMIT_API_AUTH_FAIL_IP: '100000/60/1',
        HOST: '127.0.0.1',
        WEBHOOK_ALLOW_HOSTS: `127.0.0.1:${WEBHOOK_PORT},127.0.0.1:${WEBHOOK_PORT + 1}`,
        // One proxy hop: a spec may then stand for another client with X-Forwarded-For (a burst from its own address
        // that must not take 127.0.0.1's share of sign-ins, which every other spec uses). Browsers send none.
        TRUST_PROXY: '1',
        // The source is pinned to demo data through the default LEADS_SOURCE=auto: Overpass and the registry on
        // loopback port 1, which fetch refuses to connect to (a Fetch-standard "bad port"), so start-up falls back to
        // demo data (and the demo registry) at once, never reaching out, and the search page shows the fallback banner
        // (tests/e2e/search.spec.ts).
        LEADS_SOURCE: 'auto',
        OVERPASS_URL: 'http://127.0.0.1:1/api/interpreter',
        REGISTRY_URL: 'http://127.0.0.1:1',
        SOURCE_PROBE_TIMEOUT_MS: '3000',
        HUBSPOT_API_URL: `http://127.0.0.1:${CRM_FAKES_PORT}`,
        PIPEDRIVE_API_URL: `http://127.0.0.1:${CRM_FAKES_PORT + 1}`,
        HUBSPOT_CLIENT_ID: 'e2e-hubspot-app',
        HUBSPOT_CLIENT_SECRET: 'e2e-hubspot-secret',
        HUBSPOT_OAUTH_AUTHORIZE_URL: `http://127.0.0.1:${CRM_FAKES_PORT + 3}/authorize`,
        HUBSPOT_OAUTH_TOKEN_URL: `http://127.0.0.1:${CRM_FAKES_PORT + 3}/token`,
      },
      url: `${baseURL}/login`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
})
