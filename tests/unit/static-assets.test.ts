// Scripts and styles are served as the build precompressed them (vite.config.ts writes .br and .gz
// beside each file): brotli when the browser takes it, else gzip, never compressed per request.
import fs from 'node:fs'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createHttpApp } from '#server/http-app.ts'

const ORIGINAL = `console.log("original");\n`.repeat(200)
let clientDir: string
let server: ReturnType<ReturnType<typeof createHttpApp>['listen']>
let base: string

beforeAll(async () => {
  clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadatlas-static-'))
  fs.mkdirSync(path.join(clientDir, 'assets'))
  const file = path.join(clientDir, 'assets', 'entry-abc123.js')
  fs.writeFileSync(file, ORIGINAL)
  // Distinct contents, so each test sees which file was sent (fetch decodes the body).
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync('/* the build\'s brotli */'))
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync('/* the build\'s gzip */'))
  fs.writeFileSync(path.join(clientDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
  const app = createHttpApp({
    mode: 'production',
    appUrl: 'http://127.0.0.1',
    clientDir,
    build: () => Promise.reject(new Error('no page is requested here')),
  })
  server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => {
  server.close()
  fs.rmSync(clientDir, { recursive: true, force: true })
})

const get = (acceptEncoding: string) => fetch(`${base}/assets/entry-abc123.js`, { headers: { 'Accept-Encoding': acceptEncoding } })

describe('precompressed static assets', () => {
  test('brotli when accepted, as built, cacheable for good', async () => {
    const response = await get('gzip, deflate, br, zstd')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-encoding')).toBe('br')
    expect(response.headers.get('vary')).toMatch(/accept-encoding/i)
    expect(response.headers.get('content-type')).toMatch(/javascript/)
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(await response.text()).toBe("/* the build's brotli */")
  })

  test('gzip when brotli is not accepted', async () => {
    const response = await get('gzip')
    expect(response.headers.get('content-encoding')).toBe('gzip')
    expect(await response.text()).toBe("/* the build's gzip */")
  })

  test('the plain file when no encoding is accepted', async () => {
    const response = await get('identity')
    expect(response.headers.get('content-encoding')).toBeNull()
    expect(await response.text()).toBe(ORIGINAL)
  })
})

describe('the build\'s other files', () => {
  test('are served from the root (a path with an extension)', async () => {
    const response = await fetch(`${base}/favicon.svg`)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600')
    expect(await response.text()).toBe('<svg xmlns="http://www.w3.org/2000/svg"/>')
  })
})
