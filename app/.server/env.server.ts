// The configuration, validated: every module reads the typed values (`env`, or an `Env` from validateEnv() /
// parseEnv()) instead of process.env, and parses nothing itself. The schema (env-schema.server.ts) is the one place a
// variable's type and default are defined. A wrong value stops start-up (validateEnv() in server/start.ts and
// server/worker.ts) with a message naming the variable. Secrets never leave the server.
//
// Functions that tests call with their own variables take an `Env` parameter defaulting to validateEnv() (the
// configuration at the time of the call); a test builds one from raw strings with parseEnv({...}).
import { ENV_NAMES, envSchema, type Env, type EnvName } from './env-schema.server.ts'

export {  type Env } from './env-schema.server.ts'

/** Raw variables, as in process.env (tests pass their own). */
export type EnvSource = Readonly<Record<string, string | undefined>>

export class EnvError extends Error {
  constructor(readonly variable: string, detail: string) {
    super(`Invalid environment variable ${variable}: ${detail}`)
    this.name = 'EnvError'
  }
}

/**
 * Validates `source` against the schema; blank values count as unset, unset ones get the schema's default. Throws
 * EnvError naming the variable. Tests turn their own variables into an `Env` with it.
 */
export function parseEnv(source: EnvSource): Env {
  const present: Record<string, string> = {}
  for (const name of ENV_NAMES) {
    const value = source[name]?.trim()
    if (value) present[name] = value
  }
  const result = envSchema.safeParse(present)
  if (result.success) return result.data
  const issue = result.error.issues[0]!
  throw new EnvError(String(issue.path[0] ?? '?'), issue.message)
}

/**
 * Settings `npm start` computes at run time (the embedded stack's URLs and key, the demo servers, the public
 * URL, the source LEADS_SOURCE=auto resolved to). They live on globalThis, not in a module variable: the app runs
 * from its own bundle (the React Router build, or Vite's SSR module graph in dev), which has its own copy of this
 * module in the same process.
 */
export type RuntimeSettings = Partial<
  Record<'DATABASE_URL' | 'SUPABASE_URL' | 'SUPABASE_ANON_KEY' | 'APP_URL' | 'DEMO_WEBSITES_URL' | 'REGISTRY_URL' | 'ENRICH_ALLOW_HOSTS' | 'LEADS_SOURCE' | 'INTEGRATIONS_ENCRYPTION_KEY' | 'INSEE_API_URL' | 'INSEE_API_KEY' | 'BODACC_URL' | 'INSEE_PAUSE_MS' | 'REGISTRY_EVENTS_BACKFILL_DAYS', string>
>
const RUNTIME_KEY = Symbol.for('leadatlas.runtimeSettings')
const FROZEN_KEY = Symbol.for('leadatlas.environmentFrozen')
type WithRuntime = typeof globalThis & { [RUNTIME_KEY]?: RuntimeSettings; [FROZEN_KEY]?: true }

/** Overrides the environment for the rest of this process (validated with it on the next read). */
export function setRuntimeSettings(settings: RuntimeSettings): void {
  const holder = globalThis as WithRuntime
  holder[RUNTIME_KEY] = { ...holder[RUNTIME_KEY], ...settings }
}

/**
 * The serving process's environment no longer changes once it is set up (server/start.ts calls this before it
 * serves): from then on a read skips the fingerprint of every variable (≈ 40 µs, a page reads `env` a dozen
 * times), and only a later setRuntimeSettings() is seen. On globalThis, like the runtime settings.
 */
export function freezeEnvironment(): void {
  ;(globalThis as WithRuntime)[FROZEN_KEY] = true
}

let cached: { fingerprint: string; env: Env; runtime: RuntimeSettings | undefined } | undefined

/**
 * The validated configuration, parsed again only when a variable changed: in production that is once, and
 * tests may still set process.env between cases.
 */
function current() {
  const holder = globalThis as WithRuntime
  // setRuntimeSettings() replaces the settings object: a frozen environment is read again after it.
  if (holder[FROZEN_KEY] && cached && cached.runtime === holder[RUNTIME_KEY]) return cached
  const runtime: Record<string, string | undefined> = holder[RUNTIME_KEY] ?? {}
  // Only the schema's names are read: spreading all of process.env on every read would cost more.
  const values = ENV_NAMES.map((name) => runtime[name] ?? process.env[name])
  const fingerprint = values.map((value) => value ?? '\u0001').join('\u0000')
  if (cached?.fingerprint !== fingerprint || cached.runtime !== holder[RUNTIME_KEY]) {
    const env = parseEnv(Object.fromEntries(ENV_NAMES.map((name, i) => [name, values[i]])))
    cached = { fingerprint, env, runtime: holder[RUNTIME_KEY] }
  }
  return cached
}

/**
 * The configuration now, validated (throws EnvError): start-up calls this first so a wrong value stops it, and it is
 * the default of every function that takes an `Env`.
 */
export function validateEnv(): Env {
  return current().env
}

/** Settings derived from several variables. */
const derived = {
  get supabaseUrl(): string {
    return required('SUPABASE_URL')
  },
  get supabaseAnonKey(): string {
    return required('SUPABASE_ANON_KEY')
  },
  get isProduction(): boolean {
    return current().env.NODE_ENV === 'production'
  },
  /** Cookies get the Secure flag when the app is served over https. */
  get secureCookies(): boolean {
    const { COOKIE_SECURE, APP_URL } = current().env
    return COOKIE_SECURE ?? (APP_URL ?? '').startsWith('https:')
  },
  get bookDemoUrl(): string {
    return current().env.BOOK_DEMO_URL
  },
}

function required(name: 'SUPABASE_URL' | 'SUPABASE_ANON_KEY'): string {
  const value = current().env[name]
  if (!value) throw new Error(`Missing environment variable ${name}. See .env.example.`)
  return value
}

/** The configuration: `env.EXPORT_CONCURRENCY` (a number), `env.secureCookies`, ... Always current. */
export const env: Readonly<Env> & typeof derived = new Proxy(derived, {
  get(target, key) {
    if (key in target) return Reflect.get(target, key)
    return current().env[key as EnvName]
  },
}) as Readonly<Env> & typeof derived
