// Every environment variable the app, the worker and the local servers read: name, type, default.
// `.env.example` and docs/configuration.md list the same variables with the same defaults.
import ipaddr from 'ipaddr.js'
import { z } from 'zod'

/** A number from a string; `check` says what else it must be (its message is `expected <what>`). */
function number(what: string, check: (value: number) => boolean) {
  return z.string().transform((raw, ctx) => {
    const value = Number(raw)
    if (!Number.isFinite(value)) ctx.addIssue({ code: 'custom', message: 'expected a number' })
    else if (!check(value)) ctx.addIssue({ code: 'custom', message: `expected ${what}` })
    return value
  })
}
const positiveInt = () => number('a positive whole number', (n) => Number.isInteger(n) && n > 0)
const nonNegativeInt = () => number('a whole number ≥ 0', (n) => Number.isInteger(n) && n >= 0)
const nonNegative = () => number('a number ≥ 0', (n) => n >= 0)
const positive = () => number('a number > 0', (n) => n > 0)
const port = () => number('a port number (1-65535)', (n) => Number.isInteger(n) && n > 0 && n < 65_536)

/** 'true' / 'false'. */
const boolean = () =>
  z.enum(['true', 'false'], { error: 'expected true or false' }).transform((value) => value === 'true')

/** BILLING_SANDBOX has always also taken 1/0, on/off, yes/no: kept so existing deployments start. */
const lenientBoolean = () =>
  z
    .string()
    .toLowerCase()
    .pipe(z.enum(['true', '1', 'on', 'yes', 'false', '0', 'off', 'no'], { error: 'expected true or false' }))
    .transform((value) => ['true', '1', 'on', 'yes'].includes(value))

const url = () => z.string().refine((value) => URL.canParse(value), { error: 'expected a URL' })

/**
 * "points/seconds[/blockSeconds]", with its default. Checked for shape at start-up; app/.server/rate-limiter.ts
 * (parseLimit) is the parser of the format and refuses a zero when the limit is first used.
 */
const rateLimit = (fallback: string) =>
  z
    .string()
    .regex(/^\s*\d+\s*\/\s*\d+\s*(?:\/\s*\d+\s*)?$/, { error: 'expected "points/seconds[/blockSeconds]"' })
    .default(fallback)

/** The names Express's `trust proxy` (proxy-addr) knows for address ranges. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal'])

/** An address in its usual written form (not the legacy "10.1" or "0" shorthands ipaddr.js also takes). */
const isWrittenAddress = (address: string) => ipaddr.IPv4.isValidFourPartDecimal(address) || (address.includes(':') && ipaddr.IPv6.isValid(address))

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true
  const [address = '', bits, ...rest] = entry.split('/')
  if (!isWrittenAddress(address) || rest.length > 0) return false
  if (bits === undefined) return true
  try {
    ipaddr.parseCIDR(entry)
    return /^\d+$/.test(bits)
  } catch {
    return false
  }
}

/**
 * Express's `trust proxy`, restricted to the forms that cannot be spoofed: a hop count (`1`: the rightmost
 * X-Forwarded-For entry, the one our own proxy added) or the proxies' addresses/CIDRs (`10.0.0.1,192.168.0.0/16`,
 * `loopback`). `true` would trust the leftmost entry, which the client writes: refused.
 */
/**
 * The most proxy hops TRUST_PROXY may count. Express then trusts that many X-Forwarded-For entries from the right: a
 * count larger than the proxies really in front of the app trusts entries the client wrote itself, so any client
 * could choose the address its per-IP limits count (`999` is `true` in effect). Real chains have one to three hops.
 */
const MAX_PROXY_HOPS = 5

const trustProxy = () =>
  z.string().transform((value, ctx): number | string[] => {
    if (/^\d+$/.test(value) && Number(value) > MAX_PROXY_HOPS) {
      ctx.addIssue({
        code: 'custom',
        message: `expected a hop count from 1 to ${MAX_PROXY_HOPS}, got ${value}: a count above the proxies really in front of the app trusts X-Forwarded-For entries the client wrote, so any client could choose its IP (count your proxies, or list their addresses/CIDRs)`,
      })
      return z.NEVER
    }
    if (/^\d+$/.test(value) && Number(value) > 0) return Number(value)
    const entries = value.split(',').map((entry) => entry.trim().toLowerCase())
    if (entries.every((entry) => entry !== '' && isProxyAddress(entry))) return entries
    ctx.addIssue({ code: 'custom', message: 'expected a hop count (1, 2…) or proxy addresses/CIDRs (e.g. 10.0.0.1,192.168.0.0/16 or loopback), not true' })
    return z.NEVER
  })

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test'], { error: 'expected development, production or test' }).optional(),

  // App server
  /** npm start: default 3000 (the next free port from there). The demo servers run alone: a free port. */
  PORT: port().optional(),
  HOST: z.string().default('127.0.0.1'),
  APP_URL: url().optional(),
  COOKIE_SECURE: boolean().optional(),
  BOOK_DEMO_URL: url().default('mailto:sales@leadatlas.app?subject=LeadAtlas%20demo'),
  /** Unset: no proxy (the socket's address is the client's). */
  TRUST_PROXY: trustProxy().optional(),

  // Operations (app/.server/observability/*)
  /** pino's levels; `silent` turns logging off. Read by the logger before validation too (a wrong value: info). */
  LOG_LEVEL: z
    .string()
    .toLowerCase()
    .pipe(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { error: 'expected fatal, error, warn, info, debug, trace or silent' }))
    .default('info'),
  /** A separate listener for /metrics (and /healthz, /readyz), on METRICS_HOST. Unset: none. */
  METRICS_PORT: port().optional(),
  METRICS_HOST: z.string().default('127.0.0.1'),
  /** Serves /metrics on the app port (and the worker's health port) to `Authorization: Bearer <token>`; unset: 404 there. */
  METRICS_TOKEN: z.string().min(16, { error: 'expected at least 16 characters' }).optional(),
  /** `npm run worker`: /healthz, /readyz (and /metrics with METRICS_TOKEN) on this port, on HOST. Unset: none. */
  WORKER_HEALTH_PORT: port().optional(),

  // Embedded stack
  DATA_DIR: z.string().default('.data'),
  POSTGRES_PORT: port().optional(),
  AUTH_PORT: port().optional(),
  MAILBOX_PORT: port().optional(),
  SMTP_URL: url().optional(),
  SMTP_FROM: z.string().optional(),
  DEMO_WEBSITES_PORT: port().optional(),
  DEMO_REGISTRY_PORT: port().optional(),
  /** Artificial latency of the demo websites when run on their own (`tsx server/demo-websites.ts`). */
  LATENCY_MS: nonNegative().default(0),
  /** flat: every demo site answers after LATENCY_MS; realistic: real-world times and failures (sources/demo/site-latency.ts). */
  LATENCY_PROFILE: z.enum(['flat', 'realistic'], { error: 'expected flat or realistic' }).default('flat'),

  // Database
  DATABASE_URL: url().optional(),
  DB_STATEMENT_TIMEOUT_MS: positiveInt().default(8_000),
  DB_CONNECT_TIMEOUT_MS: positiveInt().default(5_000),
  DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: positiveInt().default(300_000),

  // Rate limits (app/.server/rate-limiter.ts says which limit reads which variable)
  /** Failed sign-ins per account (the lockout window). */
  RATE_LIMIT_SIGNIN_ACCOUNT: rateLimit('5/900/900'),
  /** Failed sign-ins per client IP, whatever the account. */
  RATE_LIMIT_SIGNIN_IP: rateLimit('30/900/900'),
  /** Accounts created per client IP (each gets free credits): a team of 20 behind one office address fits in the hour. */
  RATE_LIMIT_SIGNUP_IP: rateLimit('20/3600'),
  /** Accounts created per client network (IPv4 /24, IPv6 /64) a day: rotating addresses does not farm free credits. */
  RATE_LIMIT_SIGNUP_NETWORK: rateLimit('30/86400'),
  /** Accounts created across the deployment per hour: an anomaly cap on sign-up waves from many networks. */
  RATE_LIMIT_SIGNUP_GLOBAL: rateLimit('300/3600'),
  /** Password-reset emails per client IP and per address (GoTrue sends a few per hour). */
  RATE_LIMIT_FORGOT_IP: rateLimit('5/3600'),
  RATE_LIMIT_FORGOT_EMAIL: rateLimit('3/3600'),
  /** Reset-link verifications per client IP (app page and the local auth server's /verify, as GoTrue's RATE_LIMIT_VERIFY). */
  RATE_LIMIT_VERIFY_IP: rateLimit('30/3600'),
  /** Token grants per client IP on the local auth server (GoTrue: RATE_LIMIT_TOKEN_REFRESH 150 per 5 min). */
  RATE_LIMIT_TOKEN_IP: rateLimit('150/300'),
  /** Search previews per user. */
  RATE_LIMIT_PREVIEW: rateLimit('60/60'),
  /** Exports created per user. */
  RATE_LIMIT_EXPORT_CREATE: rateLimit('10/600'),
  /** Export resumes per user (each locks the export and checks plan and credits): a burst of them stays one user's. */
  RATE_LIMIT_EXPORT_RESUME: rateLimit('10/600'),
  /** "Add enrichment" commands per user (each marks every lead of the export again). */
  RATE_LIMIT_EXPORT_ENRICH: rateLimit('10/600'),
  /** Do-not-contact list changes per user (each may import a whole CSV). */
  RATE_LIMIT_DNC_WRITE: rateLimit('120/600'),
  /** Team invitations sent or resent per user (each sends an email to an outside address). */
  RATE_LIMIT_TEAM_INVITE: rateLimit('30/3600'),
  /** /api/v1 requests per API key (every answer carries RateLimit-Limit, -Remaining and -Reset). */
  RATE_LIMIT_API: rateLimit('600/60'),
  /** /api/v1 requests per user across all their keys: more keys do not buy more requests. */
  RATE_LIMIT_API_USER: rateLimit('1200/60'),
  /** Failed /api/v1 key checks per client IP, then every /api/v1 request from it is refused for the block. */
  RATE_LIMIT_API_AUTH_FAIL_IP: rateLimit('30/60/300'),
  /** API keys created per user. */
  RATE_LIMIT_API_KEY_CREATE: rateLimit('20/3600'),
  /** Webhook "Send test event" and "Redeliver" per user (each is an outgoing request to the user's URL). */
  RATE_LIMIT_WEBHOOK_SEND: rateLimit('30/600'),

  // Hosted Supabase
  SUPABASE_URL: url().optional(),
  SUPABASE_ANON_KEY: z.string().optional(),

  // Lead sources
  /**
   * auto: OpenStreetMap when Overpass answers the start-up probe, else demo data (labelled in the UI); resolved once
   * by server/start.ts and server/worker.ts (app/.server/sources/selection.ts). demo | osm | google: as named, no probe.
   */
  LEADS_SOURCE: z
    .string()
    .toLowerCase()
    .pipe(z.enum(['auto', 'demo', 'osm', 'google'], { error: 'expected auto, demo, osm or google' }))
    .default('auto'),
  /** LEADS_SOURCE=auto: how long the start-up probes of Overpass and the registry (run in parallel) may take. */
  SOURCE_PROBE_TIMEOUT_MS: positiveInt().default(4_000),
  /** Seconds a preview (20 results + the free count) is reused for the same search; 0: never. */
  PREVIEW_CACHE_SECONDS: nonNegativeInt().default(300),
  GOOGLE_PLACES_API_KEY: z.string().optional(),
  GOOGLE_PLACES_URL: url().default('https://places.googleapis.com'),
  OVERPASS_URL: url().default('https://overpass-api.de/api/interpreter'),
  /** Overpass queries per UTC day for every process together (public instances allow about 10 000 per IP). */
  OVERPASS_DAILY_REQUESTS: positiveInt().default(10_000),
  /** Google Places Text Search calls for every process together: per minute (Google's default quota) and per UTC day. */
  GOOGLE_PLACES_REQUESTS_PER_MINUTE: positiveInt().default(600),
  GOOGLE_PLACES_DAILY_REQUESTS: positiveInt().optional(),
  LEADATLAS_CONTACT_URL: url().optional(),
  DEMO_WEBSITES_URL: url().optional(),

  // Enrichment and exports
  REGISTRY_URL: url().optional(),
  /** For every process together (app/.server/registry/limiter.ts). Default 7, or 100 for the local demo registry. */
  REGISTRY_REQUESTS_PER_SECOND: positive().optional(),
  ENRICH_ALLOW_HOSTS: z.string().default(''),
  /**
   * Registry events (app/.server/registry-events/): the INSEE Sirene 3.11 API for the daily establishment flux (its
   * key from api.insee.fr; without one the flux is not imported) and the DILA BODACC open-data exports (no key).
   * Both default to the public services, or to the local demo servers with the demo source.
   */
  INSEE_API_URL: url().optional(),
  INSEE_API_KEY: z.string().optional(),
  BODACC_URL: url().optional(),
  /** Pause between two Sirene calls (INSEE allows 30 requests a minute). */
  INSEE_PAUSE_MS: nonNegative().default(2_000),
  /** off: no daily import (the store keeps what it has; `npm run registry:load` still works). */
  REGISTRY_EVENTS_IMPORT: z.enum(['on', 'off'], { error: 'expected on or off' }).default('on'),
  /** Days back the daily import checks for days not imported yet (a worker down for a while catches up). */
  REGISTRY_EVENTS_BACKFILL_DAYS: positiveInt().default(7),
  ENRICH_TIMEOUT_MS: positiveInt().default(8_000),
  ENRICH_HOST_CONCURRENCY: positiveInt().default(2),
  /** A slot of a global limit held by a process that died comes back after this long (app/.server/limits/leases.ts). */
  LIMIT_LEASE_MS: positiveInt().default(10_000),
  /**
   * The most one account may spend of an upstream's daily quota (Overpass, Google Places), in percent: the rest stays
   * for the others (app/.server/limits/fair.ts).
   */
  LIMIT_ACCOUNT_DAILY_PERCENT: number('a percentage in ]0, 100]', (n) => n > 0 && n <= 100).default(10),
  /** Every demo site shares the demo server's host: this caps them all together (2 × the crawls in flight). */
  ENRICH_DEMO_HOST_CONCURRENCY: positiveInt().default(512),
  /** Comma list of "ip" or "ip:port"; empty: the system's resolvers (demo source: the demo mail zone). */
  EMAIL_DNS_SERVERS: z.string().default(''),
  EMAIL_DNS_TIMEOUT_MS: positiveInt().default(3_000),
  /** A domain that certainly has MX: a domain's NXDOMAIN is believed only while it resolves (asked at most once a minute). */
  EMAIL_DNS_CANARY: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^(?:[a-z\d](?:[a-z\d-]{0,61}[a-z\d])?\.)+[a-z][a-z\d-]{0,62}$/, { error: 'expected a domain name, e.g. gmail.com' })
    .default('gmail.com'),
  /** Domains whose DNS answer is remembered (LRU, one hour). */
  EMAIL_DNS_CACHE_SIZE: positiveInt().default(10_000),
  EMAIL_SMTP_CHECK: boolean().default(false),
  EMAIL_SMTP_PORT: port().default(25),
  EMAIL_SMTP_TIMEOUT_MS: positiveInt().default(10_000),
  /** "host[:port]" mail hosts (MX name or address) the SMTP check may reach on private addresses: tests only. */
  EMAIL_SMTP_ALLOW_HOSTS: z.string().default(''),
  EXPORT_MAX_LEADS: positiveInt().default(1_000),
  /**
   * Leads in flight per export. Real sites answer in seconds (median ~1.8 s, a lead needs 2–3 round trips), so a
   * lead mostly waits: 128 keep ≥ 30 leads/s (bench/enrichment.ts) while the database pool stays at 10 connections,
   * each lead holding one only while it is written.
   */
  EXPORT_CONCURRENCY: positiveInt().default(128),
  /** Days an enrichment a user paid for is reused free (and a found result reused without a crawl); 0: never. */
  ENRICHMENT_REUSE_DAYS: nonNegativeInt().default(90),
  /** Days a stored email's verification stays good: older ones are verified again before a reuse delivers them. */
  EMAIL_RECHECK_DAYS: nonNegativeInt().default(30),
  EXPORT_WORKER_JOBS: positiveInt().default(2),
  /**
   * Lead positions per batch job: an export's enrichment is split into batches any worker takes. Small enough that
   * a big export spreads over every worker and a preempted or released batch redoes little, large enough that the
   * queue's per-job overhead (a poll, a few statements) stays negligible next to 50 leads' crawls.
   */
  EXPORT_BATCH_SIZE: positiveInt().default(50),
  /** Seconds a stopping worker (SIGTERM) lets its in-flight leads finish before it aborts them (left pending, retried elsewhere). */
  WORKER_SHUTDOWN_GRACE_SECONDS: nonNegativeInt().default(20),
  EXPORT_FAIR_WAIT_SECONDS: nonNegative().default(5),
  /** 0: no cap. */
  EXPORT_USER_CONCURRENCY: nonNegativeInt().default(0),
  EXPORT_RETRY_LIMIT: positiveInt().default(8),
  EXPORT_HEARTBEAT_SECONDS: positiveInt().default(30),
  EXPORT_QUEUE: z.string().default('export-run'),
  PGBOSS_SUPERVISE_SECONDS: positiveInt().default(30),
  PGBOSS_QUEUE_CACHE_SECONDS: positiveInt().default(5),
  IN_PROCESS_WORKER: boolean().default(true),

  // Webhooks
  /** "host[:port]" webhook targets allowed on private/loopback addresses and over http (tests, local use). */
  WEBHOOK_ALLOW_HOSTS: z.string().default(''),
  /** Deliveries in flight per worker: a slow endpoint holds one slot, never the others'. */
  WEBHOOK_CONCURRENCY: positiveInt().default(16),
  /** Deliveries of one user queued or in flight, every worker together; default a quarter of WEBHOOK_CONCURRENCY. */
  WEBHOOK_USER_IN_FLIGHT: positiveInt().optional(),
  /** Queue name of the delivery jobs; every process of one deployment must agree. */
  WEBHOOK_QUEUE: z.string().default('webhook-deliver'),

  // CRM integrations (docs/integrations.md)
  /**
   * 32 random bytes (base64 or base64url, e.g. `openssl rand -base64 32`) encrypting the CRM credentials at rest.
   * Required to connect a CRM; `npm start` on the embedded database generates one in DATA_DIR.
   */
  INTEGRATIONS_ENCRYPTION_KEY: z
    .string()
    .refine((value) => Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64').length === 32, { error: 'expected 32 bytes in base64 (openssl rand -base64 32)' })
    .optional(),
  /** The CRMs' API base URLs (tests and the local fakes point them at loopback). */
  HUBSPOT_API_URL: url().default('https://api.hubapi.com'),
  PIPEDRIVE_API_URL: url().default('https://api.pipedrive.com'),
  BREVO_API_URL: url().default('https://api.brevo.com'),
  GOOGLE_SHEETS_API_URL: url().default('https://sheets.googleapis.com'),
  GOOGLE_OAUTH_TOKEN_URL: url().default('https://oauth2.googleapis.com/token'),
  /** OAuth apps: with both of a provider's, its connect form offers "Connect with …" (docs/integrations.md). */
  HUBSPOT_CLIENT_ID: z.string().optional(),
  HUBSPOT_CLIENT_SECRET: z.string().optional(),
  HUBSPOT_OAUTH_AUTHORIZE_URL: url().default('https://app.hubspot.com/oauth/authorize'),
  HUBSPOT_OAUTH_TOKEN_URL: url().default('https://api.hubapi.com/oauth/v1/token'),
  PIPEDRIVE_CLIENT_ID: z.string().optional(),
  PIPEDRIVE_CLIENT_SECRET: z.string().optional(),
  PIPEDRIVE_OAUTH_AUTHORIZE_URL: url().default('https://oauth.pipedrive.com/oauth/authorize'),
  PIPEDRIVE_OAUTH_TOKEN_URL: url().default('https://oauth.pipedrive.com/oauth/token'),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_OAUTH_AUTHORIZE_URL: url().default('https://accounts.google.com/o/oauth2/v2/auth'),
  /** Pushes run at once per worker (each waits for its CRM's own budget on top). */
  CRM_PUSH_CONCURRENCY: positiveInt().default(2),
  /** "points/seconds": pushes one user may start (forms, API, saved searches share it). */
  RATE_LIMIT_CRM_PUSH: rateLimit('30/3600'),
  /** "points/seconds": connection tests and connects per user (each calls the CRM). */
  RATE_LIMIT_CRM_CONNECT: rateLimit('20/600'),
  /** "points/seconds": list uploads and confirmed mappings per user (a file parsed; a sample matched on the registry). */
  RATE_LIMIT_LIST_UPLOAD: rateLimit('30/3600'),

  // Billing
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  STRIPE_API_BASE: url().optional(),
  STRIPE_PRICE_BASIC_MONTHLY: z.string().optional(),
  STRIPE_PRICE_BASIC_ANNUAL: z.string().optional(),
  STRIPE_PRICE_PROFESSIONAL_MONTHLY: z.string().optional(),
  STRIPE_PRICE_PROFESSIONAL_ANNUAL: z.string().optional(),
  STRIPE_PRICE_PREMIUM_MONTHLY: z.string().optional(),
  STRIPE_PRICE_PREMIUM_ANNUAL: z.string().optional(),
  /** The per-seat recurring price: seats beyond the plan's are this price's quantity on the subscription. */
  STRIPE_PRICE_SEAT: z.string().optional(),
  BILLING_SANDBOX: lenientBoolean().optional(),
  SANDBOX_BILLING_SECRET: z.string().optional(),
})

export type Env = z.output<typeof envSchema>
export type EnvName = keyof Env
export const ENV_NAMES = Object.keys(envSchema.shape) as EnvName[]
