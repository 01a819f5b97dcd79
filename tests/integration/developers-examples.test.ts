// Every example request of /developers, sent to the real API as shown (with a real key for $LEADATLAS_API_KEY): the
// reference must never show a request the API refuses. Made-up ids may only be "not found".
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { openApiDocument } from '#app/.server/api-v1/openapi.ts'
import { closeDb } from '#app/.server/db.ts'
import { API_KEY_VARIABLE, buildApiReference } from '#app/domain/api-reference.ts'
import { startDemoRegistry, type DemoRegistry } from '#server/demo/registry.ts'
import { API_ORIGIN, appFetch, createApiUser } from '#tests/support/api-client.ts'
import { startFakeHubspot, type FakeHubspot } from '#tests/support/crm-fakes/hubspot.ts'

let admin: pg.Pool
let registry: DemoRegistry
let hubspot: FakeHubspot
beforeAll(async () => {
  // "Connect a CRM" is answered by a local HubSpot accepting the example's token, never the real one.
  hubspot = await startFakeHubspot({ token: 'pat-eu1-4f2a9c1e-7b3d-4e8a-9c55-0d2f4b8a1e77' })
  process.env.HUBSPOT_API_URL = hubspot.url
  process.env.INTEGRATIONS_ENCRYPTION_KEY = Buffer.alloc(32, 3).toString('base64')
  process.env.DATABASE_URL = inject('databaseUrl')
  process.env.LEADS_SOURCE = 'demo'
  admin = new pg.Pool({ connectionString: inject('databaseUrl') })
  // The registry preview's example is answered by the offline demo registry, never the public one.
  registry = await startDemoRegistry({ port: 0 })
  process.env.REGISTRY_URL = registry.url
})
afterAll(async () => {
  await registry?.stop()
  await hubspot?.close()
  await admin.end()
  await closeDb()
})

const reference = buildApiReference(openApiDocument(), { origin: API_ORIGIN })
const operations = reference.groups.flatMap((group) => group.operations)

describe('the example requests of /developers', () => {
  test('are accepted by the API: a documented success, or 404 for an example id', async () => {
    const { key } = await createApiUser(admin, 500)
    const answers: string[] = []
    for (const operation of operations) {
      const { method, url, headers, body } = operation.request
      // What the shell makes of the curl command: the key variable expanded, JSON with its content type.
      const sent = new Headers(headers.map((header): [string, string] => [header.name, header.value.replace(`$${API_KEY_VARIABLE}`, key)]))
      if (body !== undefined) sent.set('Content-Type', 'application/json')
      const response = await appFetch(url, { method: method.toUpperCase(), headers: sent, body: body === undefined ? undefined : JSON.stringify(body) })
      const status = String(response.status)
      const documented = operation.responses.map((item) => item.status)
      const hasExampleId = /\{[^}]+\}/.test(operation.path)
      answers.push(`${operation.id} ${status}`)
      expect(documented, `${operation.id}: ${status} is documented`).toContain(status)
      expect(response.status < 400 || (hasExampleId && response.status === 404), `${operation.id} answered ${status}: ${await response.text()}`).toBe(true)
    }
    expect(answers).toHaveLength(operations.length)
  })
})
