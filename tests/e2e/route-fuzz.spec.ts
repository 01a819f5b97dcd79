/**
 * Route fuzz: every route of app/routes.ts, signed out and signed in, gets malformed bodies,
 * content types, sizes, methods, headers and NUL bytes. Nothing may answer 5xx, and the server
 * (a separate `npm run serve` process) must still answer afterwards. Raw node:http, so the
 * requests can be as broken as an attacker's (methods like TRACE, lying framing headers, bad Host).
 */
import http from 'node:http'
import { gzipSync } from 'node:zlib'
import { expect, test, type APIRequestContext } from '@playwright/test'
import routes from '../../app/routes.ts'
import { createUser } from './support/http.ts'

interface RouteEntry {
  path?: string
  index?: boolean
  children?: RouteEntry[]
}

const SOME_UUID = '00000000-0000-4000-8000-000000000000'

/** Concrete URLs for every route pattern (params filled with a well-formed and an ill-formed id). */
function routeUrls(entries: RouteEntry[], prefix = ''): string[] {
  const urls: string[] = []
  for (const entry of entries) {
    const path = entry.index ? prefix : entry.path === undefined ? prefix : `${prefix}/${entry.path}`
    if (entry.children) urls.push(...routeUrls(entry.children, path))
    if (entry.path === undefined && !entry.index) continue
    if (path.includes(':')) {
      urls.push(path.replace(/:\w+/g, SOME_UUID), path.replace(/:\w+/g, "x'%20or%201=1--"))
    } else {
      urls.push((path || '/').replace('*', 'no/such/page'))
    }
  }
  return [...new Set(urls)]
}

interface RawRequest {
  name: string
  method: string
  path?: (url: string) => string
  headers?: Record<string, string>
  body?: Buffer | string
}

const big = (bytes: number) => Buffer.alloc(bytes, 'a')
const deepJson = '['.repeat(200_000) + ']'.repeat(200_000)

function cases(origin: string): RawRequest[] {
  const same = { Origin: origin }
  const form = { ...same, 'Content-Type': 'application/x-www-form-urlencoded' }
  const json = { ...same, 'Content-Type': 'application/json' }
  return [
    { name: 'GET', method: 'GET' },
    { name: 'GET NUL in query', method: 'GET', path: (u) => `${u}?q=%00&redirectTo=%00` },
    { name: 'GET broken percent-encoding', method: 'GET', path: (u) => `${u}?q=%E0%A4%A&type=%ZZ&page=-1&page=99999999999999999999` },
    { name: 'GET long query', method: 'GET', path: (u) => `${u}?q=${'x'.repeat(6000)}` },
    { name: 'HEAD', method: 'HEAD' },
    { name: 'OPTIONS', method: 'OPTIONS' },
    { name: 'POST empty form', method: 'POST', headers: form, body: '' },
    { name: 'POST form junk', method: 'POST', headers: form, body: 'x=1&intent=%ZZ&&=&intent[]=a' },
    { name: 'POST form NUL', method: 'POST', headers: form, body: 'intent=signin&email=a%00%40b.co&password=%00%00%00%00%00%00' },
    { name: 'POST JSON to anything', method: 'POST', headers: json, body: '{"intent":"signin","email":"a@b.co"}' },
    { name: 'POST broken JSON', method: 'POST', headers: json, body: '{"userId": ' },
    { name: 'POST JSON array', method: 'POST', headers: json, body: '[1,2,3]' },
    { name: 'POST JSON wrong types', method: 'POST', headers: json, body: '{"userId":{"$ne":1},"exportId":[1],"enrichmentOptions":"all","sector":42,"country":null}' },
    { name: 'POST JSON NUL', method: 'POST', headers: json, body: '{"userId":"\\u0000","sector":"a\\u0000b","country":"FR"}' },
    { name: 'POST deeply nested JSON', method: 'POST', headers: json, body: deepJson },
    { name: 'POST text/plain', method: 'POST', headers: { ...same, 'Content-Type': 'text/plain' }, body: 'hello' },
    { name: 'POST no content type', method: 'POST', headers: same, body: 'x=1' },
    { name: 'POST broken multipart', method: 'POST', headers: { ...same, 'Content-Type': 'multipart/form-data; boundary=xx' }, body: '--xx\r\nContent-Disposition: form-data; name="a"\r\n\r\nbroken' },
    { name: 'POST multipart no boundary', method: 'POST', headers: { ...same, 'Content-Type': 'multipart/form-data' }, body: 'x' },
    { name: 'POST 200 KB form', method: 'POST', headers: form, body: Buffer.concat([Buffer.from('intent=signin&email='), big(200 * 1024)]) },
    { name: 'POST 2 MB JSON', method: 'POST', headers: json, body: Buffer.concat([Buffer.from('{"a":"'), big(2 * 1024 * 1024), Buffer.from('"}')]) },
    { name: 'POST gzip bomb form', method: 'POST', headers: { ...form, 'Content-Encoding': 'gzip' }, body: gzipSync(big(5 * 1024 * 1024)) },
    { name: 'POST lying gzip', method: 'POST', headers: { ...form, 'Content-Encoding': 'gzip' }, body: 'x=1' },
    { name: 'POST unknown encoding', method: 'POST', headers: { ...form, 'Content-Encoding': 'br2' }, body: 'x=1' },
    { name: 'POST cross-site Referer', method: 'POST', headers: { Referer: 'https://evil.example/', 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'x=1' },
    { name: 'POST Origin null', method: 'POST', headers: { Origin: 'null', 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'x=1' },
    { name: 'POST bad Referer', method: 'POST', headers: { Referer: '::::', 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'x=1' },
    { name: 'PUT', method: 'PUT', headers: form, body: 'x=1' },
    { name: 'PATCH JSON', method: 'PATCH', headers: json, body: '{}' },
    { name: 'DELETE JSON', method: 'DELETE', headers: json, body: '{"userId":"x"}' },
    { name: 'DELETE no body', method: 'DELETE', headers: same },
    { name: 'TRACE', method: 'TRACE' },
    { name: 'PROPFIND', method: 'PROPFIND', headers: same },
    { name: 'garbage cookies', method: 'GET', headers: { Cookie: 'sb-127-auth-token=base64-%%%; lng=%00; sidebar=' + 'z'.repeat(4000) } },
    { name: 'bad Accept-Language', method: 'GET', headers: { 'Accept-Language': '*;q=abc, ,,;;, zz-ZZZZZZZZ' } },
  ]
}

/** API-shaped junk: out-of-range pages, forged cursors, wrong enums, bodies of the wrong shape. */
function apiCases(): RawRequest[] {
  const json = { 'Content-Type': 'application/json' }
  return [
    { name: 'GET junk query', method: 'GET', path: (u) => `${u}?limit=-5&cursor=%%%&status=zz&type=planet&lang=xx&q=%00&format=exe&preset=../../etc` },
    { name: 'GET huge limit', method: 'GET', path: (u) => `${u}?limit=99999999999999999999&cursor=${'A'.repeat(400)}` },
    { name: 'POST wrong shapes', method: 'POST', headers: json, body: '{"criteria":[],"enrichments":"all","name":{"a":1},"max_leads":1e308,"entries":[null,1,{}],"url":"file:///etc/passwd","events":7}' },
    { name: 'POST long strings', method: 'POST', headers: json, body: JSON.stringify({ name: 'n'.repeat(5000), criteria: { sector: 's'.repeat(5000), country: 'France' }, entries: ['x'.repeat(400)] }) },
    { name: 'POST Idempotency-Key 5 KB', method: 'POST', headers: { ...json, 'Idempotency-Key': 'k'.repeat(5000) }, body: '{}' },
    { name: 'wrong scheme', method: 'GET', headers: { Authorization: 'Bearer la_' + '\u00e9'.repeat(40) } },
  ]
}

/** Every documented /api/v1 URL, with ids well-formed (unknown) and ill-formed. */
async function documentedApiUrls(api: APIRequestContext): Promise<string[]> {
  const document = (await (await api.get('/api/v1/openapi.json')).json()) as { paths: Record<string, object> }
  return Object.keys(document.paths).flatMap((path) => (path.includes('{') ? [path.replace(/\{\w+\}/g, SOME_UUID), path.replace(/\{\w+\}/g, "x'%20or%201=1--")] : [path]))
}

/** A key of the signed-in user, as /settings/api shows it once. */
async function createApiKey(api: APIRequestContext): Promise<string> {
  const page = await api.post('/settings/api', { form: { intent: 'create-key', name: 'fuzz' } })
  const key = /la_[0-9A-Za-z]{40}/.exec(await page.text())?.[0]
  if (!key) throw new Error(`no API key created (${page.status()})`)
  return key
}

function send(base: URL, path: string, request: RawRequest, cookie?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...request.headers }
    if (cookie && !headers.Cookie) headers.Cookie = cookie
    const req = http.request(
      { host: base.hostname, port: base.port, method: request.method, path, headers, timeout: 30_000 },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
        res.on('error', reject)
      },
    )
    req.on('timeout', () => req.destroy(new Error('timeout')))
    // The server may answer (413) and close before reading a large body: that is an answer, not an error.
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? resolve(-1) : reject(error)))
    if (request.body !== undefined) req.end(request.body)
    else req.end()
  })
}

test.describe('route fuzz', () => {
  // One browser-free run is enough: the no-JS project would send the same requests again.
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'runs once, in the JS project')
  test.setTimeout(300_000)

  test('no route answers 5xx to malformed requests, and the server stays up', async ({ playwright, baseURL }) => {
    const base = new URL(baseURL!)
    // Plus the probes and metrics the HTTP layer answers before the app (server/http-app.ts).
    const urls = [...routeUrls(routes as RouteEntry[]), '/healthz', '/readyz', '/metrics']
    expect(urls.length).toBeGreaterThan(15)

    const api = await playwright.request.newContext({ baseURL })
    await createUser(api, baseURL)
    const { cookies } = await api.storageState()
    const signedIn = cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ')
    expect(signedIn).toContain('auth-token')
    // Made before the fuzz: its POST /logout with this cookie really ends the session (revoked server-side).
    const key = await createApiKey(api)

    const failures: string[] = []
    let sent = 0
    for (const [who, cookie] of [['anonymous', undefined], ['signed-in', signedIn]] as const) {
      for (const url of urls) {
        for (const request of cases(base.origin)) {
          const path = request.path ? request.path(url) : url
          const status = await send(base, path, request, cookie).catch((error: Error) => {
            failures.push(`${who} ${request.name} ${path.slice(0, 80)}: ${error.message}`)
            return 0
          })
          sent++
          if (status >= 500) failures.push(`${who} ${request.name} ${request.method} ${path.slice(0, 80)} → ${status}`)
        }
      }
      // A bad Host header cannot form a URL: a 400, not a crash.
      const badHost = await send(base, '/login', { name: 'bad host', method: 'GET', headers: { Host: 'a b:99999' } }, cookie)
      expect(badHost).toBeLessThan(500)
    }
    // The public API: every documented operation with a valid key, the same hostile requests plus API-shaped junk.
    const apiUrls = await documentedApiUrls(api)
    expect(apiUrls.length).toBeGreaterThan(10)
    for (const url of apiUrls) {
      for (const request of [...cases(base.origin), ...apiCases()]) {
        const path = request.path ? request.path(url) : url
        const status = await send(base, path, { ...request, headers: { Authorization: `Bearer ${key}`, ...request.headers } }).catch((error: Error) => {
          failures.push(`api ${request.name} ${path.slice(0, 80)}: ${error.message}`)
          return 0
        })
        sent++
        // 503 is the API's documented "try again" when the business source is away, never an answer to bad input.
        if (status >= 500) failures.push(`api ${request.name} ${request.method} ${path.slice(0, 80)} → ${status}`)
      }
    }
    expect(failures, failures.join('\n')).toEqual([])
    expect(sent).toBeGreaterThan(1000)

    // Still alive and still serving pages and sign-in.
    const alive = await api.get('/login')
    expect(alive.status()).toBe(200)
    await createUser(api, baseURL)
    const session = await api.get('/exports')
    expect(session.status()).toBe(200)
    await api.dispose()
  })

  test('refusals are localized and keep the security headers', async ({ request }) => {
    const french = await request.post('/login', {
      headers: { 'Content-Type': 'text/plain', 'Accept-Language': 'fr-FR,fr;q=0.9' },
      data: 'hello',
    })
    expect(french.status()).toBe(415)
    expect(await french.text()).toContain("Ce type de requête n&#x27;est pas pris en charge ici.")

    const tooLarge = await request.post('/login', { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, data: 'a='.padEnd(200_000, 'a') })
    expect(tooLarge.status()).toBe(413)
    expect(await tooLarge.text()).toContain('The request is too large.')

    const nul = await request.get('/login?email=%00')
    expect(nul.status()).toBe(400)

    const put = await request.fetch('/login', { method: 'PUT', form: { x: '1' } })
    expect(put.status()).toBe(405)
    expect(put.headers()['allow']).toBe('GET, HEAD, POST')

    const page = await request.get('/login')
    const headers = page.headers()
    expect(headers['content-security-policy']).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}'/)
    expect(headers['cache-control']).toBe('private, no-store')
    expect(headers['x-content-type-options']).toBe('nosniff')
    expect(headers['x-frame-options']).toBe('DENY')
    const nonce = /'nonce-([^']+)'/.exec(headers['content-security-policy']!)![1]
    // Every script carries this response's nonce, or the browser would refuse it (/login's own module script; a
    // hydrated page's inline ones). JSON data blocks are not run.
    const scriptTags = (html: string) => (html.match(/<script\b[^>]*>/g) ?? []).filter((tag) => !tag.includes('type="application/json"'))
    const loginScripts = scriptTags(await page.text())
    expect(loginScripts).toHaveLength(1)
    expect(loginScripts[0]).toContain(`nonce="${nonce}"`)
    const hydrated = await request.get('/reset-password')
    const hydratedNonce = /'nonce-([^']+)'/.exec(hydrated.headers()['content-security-policy']!)![1]
    const inlineScripts = scriptTags(await hydrated.text()).filter((tag) => !/\bsrc=/.test(tag))
    expect(inlineScripts.length).toBeGreaterThan(0)
    for (const tag of inlineScripts) expect(tag).toContain(`nonce="${hydratedNonce}"`)

    const json = await request.get('/api/categories?lang=fr')
    expect(json.headers()['x-content-type-options']).toBe('nosniff')
  })
})
