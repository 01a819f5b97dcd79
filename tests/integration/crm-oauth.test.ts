// Connecting a CRM by OAuth (issue 30 item 1): "Connect with HubSpot" builds the authorization URL with a state bound
// to the browser, the code is exchanged on the server for tokens stored as the connection's encrypted secret, the
// connection works with the bearer token, and an access token about to expire is refreshed and written back. The
// authorization server and HubSpot are local fakes; the callback route's state checks are exercised end to end in
// tests/e2e/integrations.spec.ts.
import crypto from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { closeDb } from '#app/.server/db.ts'
import { runConnectionCommand } from '#app/.server/integrations/connection-commands.ts'
import { connectCrm, testCrmConnection } from '#app/.server/integrations/connections.ts'
import { exchangeCode, oauthCookie, oauthSecret, readOAuthSecret, redirectUriFor } from '#app/.server/integrations/oauth.ts'
import { openSecret, sealSecret } from '#app/.server/integrations/secrets.ts'
import { createApiUser } from '#tests/support/api-client.ts'
import { startFakeHubspot, type FakeHubspot } from '#tests/support/crm-fakes/hubspot.ts'
import { startFakeOAuth, type FakeOAuth } from '#tests/support/crm-fakes/oauth.ts'

const ACCESS = 'pat-eu1-oauth-access-token'
const ORIGIN = 'http://127.0.0.1:3000'

let admin: pg.Pool
let hubspot: FakeHubspot
let oauth: FakeOAuth

beforeAll(async () => {
  process.env.DATABASE_URL = inject('databaseUrl')
  process.env.INTEGRATIONS_ENCRYPTION_KEY = crypto.randomBytes(32).toString('base64')
  admin = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 })
  hubspot = await startFakeHubspot({ token: ACCESS })
  oauth = await startFakeOAuth({ clientId: 'hubspot-app', clientSecret: 'hubspot-app-secret', accessToken: () => ACCESS })
  Object.assign(process.env, { HUBSPOT_API_URL: hubspot.url, HUBSPOT_CLIENT_ID: 'hubspot-app', HUBSPOT_CLIENT_SECRET: 'hubspot-app-secret', HUBSPOT_OAUTH_AUTHORIZE_URL: oauth.authorizeUrl, HUBSPOT_OAUTH_TOKEN_URL: oauth.tokenUrl })
})

afterAll(async () => {
  await hubspot?.close()
  await oauth?.close()
  await closeDb()
  await admin?.end()
})

describe('connecting HubSpot by OAuth', () => {
  it('sends the admin to the CRM with a state bound to the browser, and connects with the tokens the code is exchanged for', async () => {
    const { user } = await createApiUser(admin, 10)
    const started = await runConnectionCommand(user, { intent: 'oauth', provider: 'hubspot', label: 'HubSpot by OAuth' }, { origin: ORIGIN })
    expect(started).toMatchObject({ ok: true, done: 'oauth' })
    const { to, cookie } = (started as { redirect: { to: string; cookie: string } }).redirect
    const authorize = new URL(to)
    expect(authorize.origin + authorize.pathname).toBe(oauth.authorizeUrl)
    expect(authorize.searchParams.get('client_id')).toBe('hubspot-app')
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${ORIGIN}/settings/integrations/oauth`)
    expect(authorize.searchParams.get('scope')).toContain('crm.objects.companies.write')
    const start = await oauthCookie.parse(cookie.split(';')[0]!)
    expect(start).toMatchObject({ provider: 'hubspot', label: 'HubSpot by OAuth', workspaceId: user.workspace.id })
    expect(authorize.searchParams.get('state')).toBe(start.state)
    expect(cookie).toMatch(/HttpOnly/i)

    // The user approves at the CRM, which redirects back with a code and the same state.
    const approved = await fetch(to, { redirect: 'manual' })
    const back = new URL(approved.headers.get('location')!)
    expect(back.searchParams.get('state')).toBe(start.state)
    const tokens = await exchangeCode('hubspot', back.searchParams.get('code')!, redirectUriFor(ORIGIN))
    expect(tokens.accessToken).toBe(ACCESS)
    // A code is good once.
    await expect(exchangeCode('hubspot', back.searchParams.get('code')!, redirectUriFor(ORIGIN))).rejects.toThrow(/invalid or expired/)

    const connected = await connectCrm(user, { provider: 'hubspot', label: start.label, secret: oauthSecret(tokens) })
    expect(connected.ok).toBe(true)
    const connection = (connected as { connection: { id: string; secretHint: string } }).connection
    expect(connection.secretHint).toBe('OAuth')
    const { rows } = await admin.query<{ secret_ciphertext: string }>('select secret_ciphertext from public.crm_connections where id = $1', [connection.id])
    expect(rows[0]!.secret_ciphertext).not.toContain(ACCESS)
    expect(await testCrmConnection(user, connection.id)).toMatchObject({ ok: true })
  })

  it('refreshes an access token about to expire and keeps the new tokens', async () => {
    const { user } = await createApiUser(admin, 10)
    const approved = await fetch(`${oauth.authorizeUrl}?client_id=hubspot-app&redirect_uri=${encodeURIComponent(redirectUriFor(ORIGIN))}&state=s`, { redirect: 'manual' })
    const tokens = await exchangeCode('hubspot', new URL(approved.headers.get('location')!).searchParams.get('code')!, redirectUriFor(ORIGIN))
    const connected = await connectCrm(user, { provider: 'hubspot', label: 'Expiring', secret: oauthSecret(tokens) })
    const id = (connected as { connection: { id: string } }).connection.id
    // The stored access token expires in a minute: the next use refreshes it first.
    await admin.query('update public.crm_connections set secret_ciphertext = $2 where id = $1', [id, sealSecret(oauthSecret({ ...tokens, expiresAt: Date.now() + 60_000 }), id)])
    const refreshes = oauth.grants.filter((grant) => grant.grant === 'refresh_token').length
    expect(await testCrmConnection(user, id)).toMatchObject({ ok: true })
    expect(oauth.grants.filter((grant) => grant.grant === 'refresh_token').length).toBe(refreshes + 1)
    const { rows } = await admin.query<{ secret_ciphertext: string }>('select secret_ciphertext from public.crm_connections where id = $1', [id])
    const stored = readOAuthSecret(openSecret(rows[0]!.secret_ciphertext, id))!
    expect(stored.expiresAt).toBeGreaterThan(Date.now() + 10 * 60_000)
    expect(stored.refreshToken).not.toBe(tokens.refreshToken)
  })

  it('is not offered for a CRM this deployment has no OAuth app for', async () => {
    const { user } = await createApiUser(admin, 10)
    expect(await runConnectionCommand(user, { intent: 'oauth', provider: 'pipedrive', label: 'No app' }, { origin: ORIGIN })).toMatchObject({ ok: false, code: 'oauth_unavailable' })
  })
})
