import { afterEach, describe, expect, it } from 'vitest'
import { env, freezeEnvironment, parseEnv, setRuntimeSettings, validateEnv } from '#app/.server/env.server.ts'

describe('configuration (app/.server/env.server.ts)', () => {
  it('applies the defaults when nothing is set', () => {
    const config = parseEnv({})
    expect(config).toMatchObject({ HOST: '127.0.0.1', DATA_DIR: '.data', LEADS_SOURCE: 'auto', EXPORT_CONCURRENCY: 128, IN_PROCESS_WORKER: true })
    expect(config).toMatchObject({ SOURCE_PROBE_TIMEOUT_MS: 4000, PREVIEW_CACHE_SECONDS: 300 })
    expect(config.PORT).toBeUndefined()
    expect(config.DATABASE_URL).toBeUndefined()
  })

  it('coerces numbers and booleans, and treats blank values as unset', () => {
    const config = parseEnv({ EXPORT_CONCURRENCY: ' 4 ', IN_PROCESS_WORKER: 'false', COOKIE_SECURE: 'true', APP_URL: '  ', BILLING_SANDBOX: 'yes' })
    expect(config).toMatchObject({ EXPORT_CONCURRENCY: 4, IN_PROCESS_WORKER: false, COOKIE_SECURE: true, BILLING_SANDBOX: true })
    expect(config.APP_URL).toBeUndefined()
  })

  it('types TRUST_PROXY as Express takes it (hop count or proxy addresses) and fills the rate limits with their defaults', () => {
    expect(parseEnv({}).TRUST_PROXY).toBeUndefined()
    expect(parseEnv({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1)
    expect(parseEnv({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2)
    expect(parseEnv({ TRUST_PROXY: '5' }).TRUST_PROXY).toBe(5)
    expect(parseEnv({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,fd00::/8' }).TRUST_PROXY).toEqual(['10.0.0.1', '192.168.0.0/16', 'fd00::/8'])
    expect(parseEnv({ TRUST_PROXY: 'loopback,uniquelocal' }).TRUST_PROXY).toEqual(['loopback', 'uniquelocal'])
    expect(parseEnv({})).toMatchObject({ RATE_LIMIT_SIGNIN_ACCOUNT: '5/900/900', RATE_LIMIT_EXPORT_CREATE: '10/600' })
  })

  it.each<[Record<string, string>, string]>([
    [{ EXPORT_CONCURRENCY: 'many' }, 'Invalid environment variable EXPORT_CONCURRENCY: expected a number'],
    [{ EXPORT_CONCURRENCY: '0' }, 'Invalid environment variable EXPORT_CONCURRENCY: expected a positive whole number'],
    [{ PORT: '70000' }, 'Invalid environment variable PORT: expected a port number (1-65535)'],
    [{ IN_PROCESS_WORKER: 'maybe' }, 'Invalid environment variable IN_PROCESS_WORKER: expected true or false'],
    [{ APP_URL: 'not a url' }, 'Invalid environment variable APP_URL: expected a URL'],
    [{ LEADS_SOURCE: 'yelp' }, 'Invalid environment variable LEADS_SOURCE: expected auto, demo, osm or google'],
    [{ SOURCE_PROBE_TIMEOUT_MS: '0' }, 'Invalid environment variable SOURCE_PROBE_TIMEOUT_MS: expected a positive whole number'],
    [{ PREVIEW_CACHE_SECONDS: '-1' }, 'Invalid environment variable PREVIEW_CACHE_SECONDS: expected a whole number ≥ 0'],
    // `true` trusts the leftmost X-Forwarded-For entry, which any client writes.
    ...['true', 'false', 'yes', '0', '-1', '1.5', '10.0.0.1,', '10.0.0.0/33', '300.1.1.1', 'everyone'].map(
      (value): [Record<string, string>, string] => [{ TRUST_PROXY: value }, 'Invalid environment variable TRUST_PROXY: expected a hop count (1, 2…) or proxy addresses/CIDRs'],
    ),
    // A count above the real proxies trusts entries the client wrote: 999 is `true` in effect.
    ...['6', '999', '0999'].map((value): [Record<string, string>, string] => [
      { TRUST_PROXY: value },
      `Invalid environment variable TRUST_PROXY: expected a hop count from 1 to 5, got ${value}: a count above the proxies really in front of the app trusts X-Forwarded-For entries the client wrote, so any client could choose its IP`,
    ]),
    [{ RATE_LIMIT_PREVIEW: '60 per minute' }, 'Invalid environment variable RATE_LIMIT_PREVIEW: expected "points/seconds[/blockSeconds]"'],
  ])('rejects %o with a message naming the variable', (source, message) => {
    expect(() => parseEnv(source)).toThrow(message)
  })

  describe('the process configuration', () => {
    const saved = { ...process.env }
    afterEach(() => {
      for (const name of ['EXPORT_CONCURRENCY', 'LEADS_SOURCE']) {
        if (saved[name] === undefined) delete process.env[name]
        else process.env[name] = saved[name]
      }
    })

    it('follows process.env changes (tests set variables between cases)', () => {
      process.env.EXPORT_CONCURRENCY = '3'
      expect(env.EXPORT_CONCURRENCY).toBe(3)
      process.env.EXPORT_CONCURRENCY = '5'
      expect(env.EXPORT_CONCURRENCY).toBe(5)
    })

    it('fails validateEnv() on a wrong value', () => {
      process.env.EXPORT_CONCURRENCY = 'lots'
      expect(() => validateEnv()).toThrow('Invalid environment variable EXPORT_CONCURRENCY: expected a number')
    })

    it('lets runtime settings (npm start computes them) override the environment', () => {
      setRuntimeSettings({ REGISTRY_URL: 'http://127.0.0.1:1234' })
      expect(env.REGISTRY_URL).toBe('http://127.0.0.1:1234')
      setRuntimeSettings({ REGISTRY_URL: undefined })
    })

    it('once frozen (the server, set up), no longer reads process.env, but still sees runtime settings', () => {
      process.env.EXPORT_CONCURRENCY = '3'
      expect(env.EXPORT_CONCURRENCY).toBe(3)
      freezeEnvironment()
      try {
        process.env.EXPORT_CONCURRENCY = '5'
        expect(env.EXPORT_CONCURRENCY).toBe(3)
        setRuntimeSettings({ REGISTRY_URL: 'http://127.0.0.1:1234' })
        expect(env.REGISTRY_URL).toBe('http://127.0.0.1:1234')
        expect(env.EXPORT_CONCURRENCY).toBe(5)
        setRuntimeSettings({ REGISTRY_URL: undefined })
        expect(env.REGISTRY_URL).toBeUndefined()
      } finally {
        delete (globalThis as Record<symbol, unknown>)[Symbol.for('leadatlas.environmentFrozen')]
      }
    })
  })
})
