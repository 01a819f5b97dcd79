/**
 * Contract tests of the auth API, driven through the real supabase-js client.
 * They run against the local auth server the global setup starts (server/auth-server),
 * and most of them against hosted Supabase Auth as well; the ones that need the local
 * signing key or the local outbox are skipped there.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { createClient, type Session, type SupabaseClient } from '@supabase/supabase-js'
import { SignJWT, decodeJwt, decodeProtectedHeader, generateKeyPair, importJWK, type JWTPayload } from 'jose'
import pg from 'pg'
import { describe, expect, inject, it, vi } from 'vitest'
import { readOutbox } from '#server/auth-server/index.ts'
import { readSigningKeyFile, type SigningKeyFile } from '#server/auth-server/keys.ts'

const supabaseUrl = inject('supabaseUrl')
const anonKey = inject('supabaseAnonKey')
const databaseUrl = inject('databaseUrl')

const PASSWORD = 'correct horse 1'
const NEW_PASSWORD = 'battery staple 2'

function newClient(options: { fetch?: typeof fetch } = {}): SupabaseClient {
  return createClient(supabaseUrl, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: options.fetch ? { fetch: options.fetch } : {},
  })
}

function uniqueEmail(label: string) {
  return `auth-${label}-${crypto.randomUUID().slice(0, 8)}@example.com`
}

async function signUp(label: string, data: Record<string, unknown> = {}) {
  const client = newClient()
  const email = uniqueEmail(label)
  const { data: result, error } = await client.auth.signUp({ email, password: PASSWORD, options: { data } })
  expect(error).toBeNull()
  expect(result.session).not.toBeNull()
  return { client, email, session: result.session as Session, user: result.user! }
}

async function signIn(email: string, password = PASSWORD) {
  const client = newClient()
  const { data, error } = await client.auth.signInWithPassword({ email, password })
  return { client, session: data.session, error }
}

/**
 * The key file of the server under test: the global setup keeps it in its data directory,
 * and the right one is the file whose kid the server publishes. Undefined against hosted
 * Supabase, which turns the tests that need it into skips.
 */
async function findLocalKeyFile(): Promise<SigningKeyFile | undefined> {
  const response = await fetch(`${supabaseUrl}/auth/v1/.well-known/jwks.json`, { headers: { apikey: anonKey } })
  if (!response.ok) return undefined
  const { keys } = (await response.json()) as { keys: Array<{ kid?: string }> }
  const dataDir = path.resolve('.data')
  if (!fs.existsSync(dataDir)) return undefined
  for (const entry of fs.readdirSync(dataDir)) {
    const file = path.join(dataDir, entry, 'auth-signing-key.json')
    if (!fs.existsSync(file)) continue
    const keyFile = readSigningKeyFile(file)
    if (keys.some((key) => key.kid === keyFile.kid)) return keyFile
  }
  return undefined
}

const localKeyFile = await findLocalKeyFile()
/** The local server writes emails to auth.local_outbox; hosted Supabase sends real ones. */
const local = localKeyFile !== undefined

async function latestEmailTo(email: string) {
  const [row] = await readOutbox(databaseUrl, { to: email, limit: 1 })
  return row
}

async function signToken(payload: JWTPayload, key: Parameters<SignJWT['sign']>[0], kid: string) {
  return new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' }).sign(key)
}

describe('sign-up', () => {
  it('creates an auto-confirmed user and returns a session with the user and its metadata', async () => {
    const client = newClient()
    const email = uniqueEmail('signup')
    const { data, error } = await client.auth.signUp({
      email: email.toUpperCase(),
      password: PASSWORD,
      options: { data: { full_name: 'Ada Lovelace', locale: 'en' } },
    })
    expect(error).toBeNull()
    expect(data.session).toMatchObject({ token_type: 'bearer', expires_in: expect.any(Number) })
    expect(data.session?.access_token).toEqual(expect.any(String))
    expect(data.session?.refresh_token).toEqual(expect.any(String))
    expect(data.user).toMatchObject({
      email,
      aud: 'authenticated',
      role: 'authenticated',
      user_metadata: { full_name: 'Ada Lovelace', locale: 'en' },
      app_metadata: { provider: 'email' },
      is_anonymous: false,
    })
    expect(data.user?.email_confirmed_at).toEqual(expect.any(String))
  })

  it('refuses a password shorter than 6 characters as a weak password', async () => {
    const { error } = await newClient().auth.signUp({ email: uniqueEmail('weak'), password: '12345' })
    expect(error).toMatchObject({ status: 422, code: 'weak_password', name: 'AuthWeakPasswordError' })
    expect((error as unknown as { reasons: string[] }).reasons).toContain('length')
  })

  it.skipIf(!local)('refuses the most common passwords as weak (reason "pwned", as GoTrue), and takes a strong one', async () => {
    for (const password of ['123456', 'password', 'aaaaaa']) {
      const email = uniqueEmail('common')
      const { data, error } = await newClient().auth.signUp({ email, password })
      expect(data.session, password).toBeNull()
      expect(error, password).toMatchObject({ status: 422, code: 'weak_password', name: 'AuthWeakPasswordError' })
      expect((error as unknown as { reasons: string[] }).reasons, password).toEqual(['pwned'])
      expect(error?.message).toBe('Password is known to be weak and easy to guess, please choose a different one.')
      // Nothing was created: the address is still free.
      expect((await signIn(email, password)).error).toMatchObject({ code: 'invalid_credentials' })
    }
    const { data, error } = await newClient().auth.signUp({ email: uniqueEmail('strong'), password: 'orbit-lantern-57' })
    expect(error).toBeNull()
    expect(data.session).not.toBeNull()
  })

  it('refuses a malformed email', async () => {
    const { error } = await newClient().auth.signUp({ email: 'not-an-email', password: PASSWORD })
    expect(error).toMatchObject({ status: 400, code: 'validation_failed' })
  })
})

/** A raw POST /signup, to compare what the wire says for two addresses. */
function postSignUp(body: Record<string, unknown>) {
  return fetch(`${supabaseUrl}/auth/v1/signup`, { method: 'POST', headers: { apikey: anonKey, 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

async function emailTo(address: string) {
  return vi.waitFor(async () => (await latestEmailTo(address)) ?? Promise.reject(new Error(`no email to ${address} yet`)))
}

describe.skipIf(!local)('sign-up with an address that already has an account (enumeration protection)', () => {
  const userShape = (user: Record<string, unknown>) =>
    Object.fromEntries(['id', 'aud', 'role', 'email', 'phone', 'app_metadata', 'user_metadata', 'identities', 'created_at', 'updated_at', 'is_anonymous'].map((key) => [key, typeof user[key]]))

  it('answers as for a new address (200, a user with identities: []), with a made-up id and no session', async () => {
    const { email, user } = await signUp('duplicate')
    const fresh = await postSignUp({ email: uniqueEmail('fresh'), password: PASSWORD })
    const again = await postSignUp({ email: email.toUpperCase(), password: 'another horse 3' })
    expect(again.status).toBe(200)
    expect(again.status).toBe(fresh.status)
    const freshUser = ((await fresh.json()) as { user: Record<string, unknown> }).user
    const againBody = (await again.json()) as Record<string, unknown>
    expect(userShape(againBody)).toEqual(userShape(freshUser))
    expect(againBody).toMatchObject({ email, aud: 'authenticated', role: 'authenticated', identities: [], app_metadata: { provider: 'email', providers: ['email'] } })
    expect(againBody.id).not.toBe(user.id)
    expect(againBody).not.toHaveProperty('access_token')

    // supabase-js: no error, a user, no session (what a project requiring confirmation answers).
    const { data, error } = await newClient().auth.signUp({ email, password: 'another horse 4' })
    expect(error).toBeNull()
    expect(data.session).toBeNull()
    expect(data.user).toMatchObject({ email, identities: [] })
    // The account is untouched: its password still works, the attempted one does not.
    expect((await signIn(email)).error).toBeNull()
    expect((await signIn(email, 'another horse 4')).error).toMatchObject({ code: 'invalid_credentials' })
  })

  it('takes about as long as a real sign-up (the password is hashed anyway)', async () => {
    const { email } = await signUp('timing')
    const timed = async (body: Record<string, unknown>) => {
      const started = performance.now()
      expect((await postSignUp(body)).status).toBe(200)
      return performance.now() - started
    }
    const fresh: number[] = []
    const existing: number[] = []
    for (let i = 0; i < 5; i++) {
      fresh.push(await timed({ email: uniqueEmail('timing-new'), password: PASSWORD }))
      existing.push(await timed({ email, password: PASSWORD }))
    }
    // Before: 24 ms against 139 ms (no bcrypt for a known address). A loose bound: the machine is shared.
    expect(median(existing)).toBeGreaterThan(median(fresh) * 0.4)
  })

  it('mails the owner "someone tried to create an account", in their language when known, else English', async () => {
    const english = await signUp('notice-en')
    const french = await signUp('notice-fr', { locale: 'fr' })
    for (const { email } of [english, french]) expect((await postSignUp({ email, password: 'another horse 5' })).status).toBe(200)

    const englishMail = await emailTo(english.email)
    expect(englishMail.subject).toBe('Someone tried to create an account with your address')
    expect(englishMail.body_text).toContain('Sign in to LeadAtlas: http://127.0.0.1:5999/login')
    expect(englishMail.body_text).toContain('Forgot your password? Reset it here: http://127.0.0.1:5999/login?mode=forgot')
    const frenchMail = await emailTo(french.email)
    expect(frenchMail.subject).toBe("Quelqu'un a tenté de créer un compte avec votre adresse")
    expect(frenchMail.body_text).toContain('Se connecter à LeadAtlas : http://127.0.0.1:5999/login')
    // A new address gets no such email.
    const newcomer = uniqueEmail('notice-new')
    expect((await postSignUp({ email: newcomer, password: PASSWORD })).status).toBe(200)
    expect(await readOutbox(databaseUrl, { to: newcomer })).toEqual([])
  })
})

describe('sign-in with password', () => {
  it('returns a session for the right password, case-insensitively on the email', async () => {
    const { email } = await signUp('signin')
    const { session, error } = await signIn(email.toUpperCase())
    expect(error).toBeNull()
    expect(session?.user.email).toBe(email)
    expect(session?.user.last_sign_in_at).toEqual(expect.any(String))
  })

  it('answers a wrong password and an unknown email identically', async () => {
    const { email } = await signUp('wrongpw')
    const wrongPassword = await signIn(email, 'wrong password')
    const unknownEmail = await signIn(uniqueEmail('nobody'))
    for (const { session, error } of [wrongPassword, unknownEmail]) {
      expect(session).toBeNull()
      expect(error).toMatchObject({ status: 400, code: 'invalid_credentials', message: 'Invalid login credentials' })
    }
  })
})

describe('access tokens', () => {
  it('getUser() returns the signed-in user', async () => {
    const { client, user } = await signUp('getuser')
    const { data, error } = await client.auth.getUser()
    expect(error).toBeNull()
    expect(data.user).toMatchObject({ id: user.id, email: user.email })
  })

  it('getClaims() verifies the token locally through the JWKS, without calling /user', async () => {
    const requested: string[] = []
    const recordingFetch: typeof fetch = (input, init) => {
      requested.push(new URL(input instanceof Request ? input.url : String(input)).pathname)
      return fetch(input, init)
    }
    const client = newClient({ fetch: recordingFetch })
    const email = uniqueEmail('claims')
    const { data: signUpData } = await client.auth.signUp({ email, password: PASSWORD })
    const { data, error } = await client.auth.getClaims()
    expect(error).toBeNull()
    expect(data?.header).toMatchObject({ alg: 'ES256', kid: expect.any(String) })
    expect(data?.claims).toMatchObject({
      sub: signUpData.user?.id,
      aud: 'authenticated',
      role: 'authenticated',
      email,
      aal: 'aal1',
      session_id: expect.any(String),
      is_anonymous: false,
      iss: `${supabaseUrl}/auth/v1`,
    })
    expect(data?.claims.amr).toEqual([{ method: 'password', timestamp: expect.any(Number) }])
    expect(requested).toContain('/auth/v1/.well-known/jwks.json')
    expect(requested).not.toContain('/auth/v1/user')
  })

  it.skipIf(!local)('refuses an expired token signed with the real key', async () => {
    const { session } = await signUp('expired')
    const claims = decodeJwt(session.access_token)
    const now = Math.floor(Date.now() / 1000)
    const privateKey = await importJWK(localKeyFile!.privateJwk, 'ES256')
    const expired = await signToken({ ...claims, iat: now - 7200, exp: now - 3600 }, privateKey, localKeyFile!.kid)

    const { data, error } = await newClient().auth.getUser(expired)
    expect(data.user).toBeNull()
    expect(error).toMatchObject({ status: 403, code: 'bad_jwt' })
    expect((await newClient().auth.getClaims(expired)).error).not.toBeNull()
  })

  it('refuses a token signed with another key under the same kid', async () => {
    const { session } = await signUp('forged')
    const { kid } = decodeProtectedHeader(session.access_token)
    const { privateKey } = await generateKeyPair('ES256')
    const forged = await signToken(decodeJwt(session.access_token), privateKey, kid!)

    const { data, error } = await newClient().auth.getUser(forged)
    expect(data.user).toBeNull()
    expect(error).toMatchObject({ status: 403, code: 'bad_jwt' })
    const claims = await newClient().auth.getClaims(forged)
    expect(claims.error?.message).toMatch(/signature/i)
  })
})

describe('refresh tokens', () => {
  /** Pretends the rotation happened `seconds` ago, past GoTrue's reuse interval. */
  async function ageRotation(token: string, seconds: number) {
    const client = new pg.Client({ connectionString: databaseUrl })
    await client.connect()
    await client.query(`update auth.refresh_tokens set updated_at = now() - make_interval(secs => $2) where token = $1`, [token, seconds])
    await client.end()
  }

  it('rotate: the new pair works, and the old token is refused once the reuse interval has passed', async () => {
    const { client, session } = await signUp('refresh')
    const { data, error } = await client.auth.refreshSession()
    expect(error).toBeNull()
    expect(data.session?.refresh_token).not.toBe(session.refresh_token)
    expect(data.session?.user.id).toBe(session.user.id)
    expect((await newClient().auth.getUser(data.session!.access_token)).error).toBeNull()

    await ageRotation(session.refresh_token, 11)
    const reuse = await newClient().auth.refreshSession({ refresh_token: session.refresh_token } as Session)
    expect(reuse.data.session).toBeNull()
    expect(reuse.error).toMatchObject({ status: 400, code: 'refresh_token_already_used' })
  })

  it.skipIf(!local)('two requests refreshing the same token at once both stay signed in (reuse interval)', async () => {
    const { session } = await signUp('race')
    const [first, second] = await Promise.all([
      newClient().auth.refreshSession({ refresh_token: session.refresh_token } as Session),
      newClient().auth.refreshSession({ refresh_token: session.refresh_token } as Session),
    ])
    expect(first.error).toBeNull()
    expect(second.error).toBeNull()
    expect(second.data.session?.refresh_token).toBe(first.data.session?.refresh_token)
    expect((await newClient().auth.getUser(second.data.session!.access_token)).error).toBeNull()
  })

  it.skipIf(!local)('reuse of a rotated token after the interval ends the whole session', async () => {
    const { client, session } = await signUp('family')
    const { data } = await client.auth.refreshSession()
    await ageRotation(session.refresh_token, 11)
    await newClient().auth.refreshSession({ refresh_token: session.refresh_token } as Session)
    expect((await newClient().auth.getUser(data.session!.access_token)).error).not.toBeNull()
    const next = await newClient().auth.refreshSession({ refresh_token: data.session!.refresh_token } as Session)
    expect(next.error).toMatchObject({ status: 400 })
  })

  it('refuses an unknown refresh token', async () => {
    const { error } = await newClient().auth.refreshSession({ refresh_token: 'not-a-token' } as Session)
    expect(error).toMatchObject({ status: 400, code: 'refresh_token_not_found' })
  })
})

describe('updating the user', () => {
  it('merges data into user_metadata and deletes keys set to null', async () => {
    const { client } = await signUp('metadata', { full_name: 'Grace Hopper', locale: 'en' })
    const { data, error } = await client.auth.updateUser({ data: { locale: null, company: 'Navy' } })
    expect(error).toBeNull()
    expect(data.user?.user_metadata).toMatchObject({ full_name: 'Grace Hopper', company: 'Navy' })
    expect(data.user?.user_metadata).not.toHaveProperty('locale')

    const { data: reloaded } = await client.auth.getUser()
    expect(reloaded.user?.user_metadata).toMatchObject({ full_name: 'Grace Hopper', company: 'Navy' })
    expect(reloaded.user?.user_metadata).not.toHaveProperty('locale')
  })

  it('changes the password and ends the other sessions, keeping this one', async () => {
    const { client, email } = await signUp('password')
    const other = await signIn(email)
    expect(other.error).toBeNull()

    const { error } = await client.auth.updateUser({ password: NEW_PASSWORD })
    expect(error).toBeNull()

    expect((await signIn(email, PASSWORD)).error).toMatchObject({ code: 'invalid_credentials' })
    expect((await signIn(email, NEW_PASSWORD)).error).toBeNull()
    expect((await client.auth.getUser()).error).toBeNull()
    const otherUser = await newClient().auth.getUser(other.session!.access_token)
    expect(otherUser.error?.name).toBe('AuthSessionMissingError')
    const otherRefresh = await newClient().auth.refreshSession(other.session!)
    expect(otherRefresh.error).toMatchObject({ status: 400 })
  })

  it('refuses a weak new password', async () => {
    const { client } = await signUp('weaknew')
    const { error } = await client.auth.updateUser({ password: '123' })
    expect(error).toMatchObject({ status: 422, code: 'weak_password' })
  })

  it.skipIf(!local)('refuses a common new password', async () => {
    const { client } = await signUp('commonnew')
    const { error } = await client.auth.updateUser({ password: 'password' })
    expect(error).toMatchObject({ status: 422, code: 'weak_password' })
    expect((error as unknown as { reasons: string[] }).reasons).toEqual(['pwned'])
  })
})

describe('signing out', () => {
  it('ends the session: its access and refresh tokens stop working', async () => {
    const { client, session } = await signUp('signout')
    const { error } = await client.auth.signOut()
    expect(error).toBeNull()

    const { data, error: userError } = await newClient().auth.getUser(session.access_token)
    expect(data.user).toBeNull()
    expect(userError?.name).toBe('AuthSessionMissingError')
    const refresh = await newClient().auth.refreshSession(session)
    expect(refresh.error).toMatchObject({ status: 400, code: 'refresh_token_not_found' })
  })

  it('with scope "others" ends every session but the current one', async () => {
    const { client, email } = await signUp('others')
    const other = await signIn(email)
    expect((await client.auth.signOut({ scope: 'others' })).error).toBeNull()
    expect((await client.auth.getUser()).error).toBeNull()
    expect((await newClient().auth.getUser(other.session!.access_token)).error?.name).toBe('AuthSessionMissingError')
  })
})

describe.skipIf(!local)('password recovery', () => {
  /** The site URL the server falls back to, read off a link sent without redirect_to. */
  async function siteUrl() {
    const { email } = await signUp('siteurl')
    await newClient().auth.resetPasswordForEmail(email)
    const link = new URL((await latestEmailTo(email))!.link!)
    return `${link.origin}${link.pathname}`
  }

  it('mails a link to redirect_to carrying token_hash and type=recovery; verifyOtp turns it into a session once', async () => {
    const site = new URL(await siteUrl())
    const { email, user } = await signUp('recover')
    const redirectTo = `${site.origin}/reset-password?next=%2Fapp`
    const { data, error } = await newClient().auth.resetPasswordForEmail(email, { redirectTo })
    expect(error).toBeNull()
    expect(data).toEqual({})

    const mail = await latestEmailTo(email)
    expect(mail).toMatchObject({ to_email: email, subject: expect.any(String) })
    const link = new URL(mail!.link!)
    expect(`${link.origin}${link.pathname}`).toBe(`${site.origin}/reset-password`)
    expect(link.searchParams.get('next')).toBe('/app')
    expect(link.searchParams.get('type')).toBe('recovery')
    const tokenHash = link.searchParams.get('token_hash')!
    // 32 random bytes, base64url: 256 bits, nothing derived from the email.
    expect(tokenHash).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(mail!.body_text).toContain(mail!.link)
    // No 6-digit code to enumerate: the link is the only way in.
    expect(mail!.body_text).not.toMatch(/\b\d{6}\b/)
    const codeVerify = await newClient().auth.verifyOtp({ type: 'recovery', email, token: '123456' })
    expect(codeVerify.error).toMatchObject({ status: 400, code: 'validation_failed' })

    const client = newClient()
    const verified = await client.auth.verifyOtp({ type: 'recovery', token_hash: tokenHash })
    expect(verified.error).toBeNull()
    expect(verified.data.session?.user.id).toBe(user.id)
    expect(decodeJwt(verified.data.session!.access_token).amr).toEqual([{ method: 'otp', timestamp: expect.any(Number) }])

    // The recovery session may set the new password.
    expect((await client.auth.updateUser({ password: NEW_PASSWORD })).error).toBeNull()
    expect((await signIn(email, NEW_PASSWORD)).error).toBeNull()

    const reused = await newClient().auth.verifyOtp({ type: 'recovery', token_hash: tokenHash })
    expect(reused.data.session).toBeNull()
    expect(reused.error).toMatchObject({ status: 403, code: 'otp_expired', message: 'Email link is invalid or has expired' })
  })

  it('stores the hash with a "pkce_" prefix in the PKCE flow (as @supabase/ssr uses)', async () => {
    const { email } = await signUp('pkce')
    const pkceClient = createClient(supabaseUrl, anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, flowType: 'pkce' },
    })
    expect((await pkceClient.auth.resetPasswordForEmail(email)).error).toBeNull()
    const tokenHash = new URL((await latestEmailTo(email))!.link!).searchParams.get('token_hash')!
    expect(tokenHash).toMatch(/^pkce_[A-Za-z0-9_-]{43}$/)
    const { data, error } = await newClient().auth.verifyOtp({ type: 'recovery', token_hash: tokenHash })
    expect(error).toBeNull()
    expect(data.session?.user.email).toBe(email)
  })

  it('ignores an off-site redirect_to and links to the site URL instead', async () => {
    const site = await siteUrl()
    const { email } = await signUp('offsite')
    await newClient().auth.resetPasswordForEmail(email, { redirectTo: 'https://evil.example/steal' })
    const link = new URL((await latestEmailTo(email))!.link!)
    expect(`${link.origin}${link.pathname}`).toBe(site)
    expect(link.searchParams.get('token_hash')).toBeTruthy()
  })

  it('answers 200 for an unknown email without sending anything', async () => {
    const email = uniqueEmail('unknown')
    const { data, error } = await newClient().auth.resetPasswordForEmail(email)
    expect(error).toBeNull()
    expect(data).toEqual({})
    expect(await readOutbox(databaseUrl, { to: email })).toEqual([])
  })

  it('refuses a link older than one hour', async () => {
    const { email } = await signUp('stale')
    await newClient().auth.resetPasswordForEmail(email)
    const tokenHash = new URL((await latestEmailTo(email))!.link!).searchParams.get('token_hash')!
    const db = new pg.Client({ connectionString: databaseUrl })
    await db.connect()
    try {
      await db.query(`update auth.users set recovery_sent_at = now() - interval '61 minutes' where email = $1`, [email])
    } finally {
      await db.end()
    }
    const { error } = await newClient().auth.verifyOtp({ type: 'recovery', token_hash: tokenHash })
    expect(error).toMatchObject({ status: 403, code: 'otp_expired' })
  })

  it('refuses a made-up token hash', async () => {
    const { error } = await newClient().auth.verifyOtp({ type: 'recovery', token_hash: 'pkce_' + 'a'.repeat(43) })
    expect(error).toMatchObject({ status: 403, code: 'otp_expired' })
  })

  it('stores only a hash of the token: the database does not hold a usable link', async () => {
    const { email } = await signUp('stored')
    await newClient().auth.resetPasswordForEmail(email)
    const tokenHash = new URL((await latestEmailTo(email))!.link!).searchParams.get('token_hash')!
    const db = new pg.Client({ connectionString: databaseUrl })
    await db.connect()
    try {
      const { rows } = await db.query<{ recovery_token: string }>('select recovery_token from auth.users where email = $1', [email])
      expect(rows[0]!.recovery_token).toMatch(/^[0-9a-f]{64}$/)
      expect(rows[0]!.recovery_token).not.toContain(tokenHash)
      const stolen = await newClient().auth.verifyOtp({ type: 'recovery', token_hash: rows[0]!.recovery_token })
      expect(stolen.error).toMatchObject({ status: 403, code: 'otp_expired' })
    } finally {
      await db.end()
    }
  })
})

describe('wire details', () => {
  const headers = { apikey: anonKey, 'Content-Type': 'application/json' }

  it('answers malformed JSON with 400 bad_json and the API version header', async () => {
    const response = await fetch(`${supabaseUrl}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers,
      body: '{"email":',
    })
    expect(response.status).toBe(400)
    expect(response.headers.get('x-supabase-api-version')).toBe('2024-01-01')
    expect(await response.json()).toMatchObject({ code: 'bad_json' })
  })

  it('answers /user without a bearer token with 401 no_authorization', async () => {
    const response = await fetch(`${supabaseUrl}/auth/v1/user`, { headers })
    expect(response.status).toBe(401)
    expect(await response.json()).toMatchObject({ code: 'no_authorization' })
  })

  it('answers /user with the anon key as bearer with 403 bad_jwt', async () => {
    const response = await fetch(`${supabaseUrl}/auth/v1/user`, {
      headers: { ...headers, Authorization: `Bearer ${anonKey}` },
    })
    expect(response.status).toBe(403)
    expect(await response.json()).toMatchObject({ code: 'bad_jwt' })
  })

  it('publishes the ES256 public key and a health check', async () => {
    const jwks = await (await fetch(`${supabaseUrl}/auth/v1/.well-known/jwks.json`)).json()
    expect(jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', kid: expect.any(String) })
    expect(jwks.keys[0]).not.toHaveProperty('d')
    expect((await fetch(`${supabaseUrl}/auth/v1/health`)).status).toBe(200)
  })

  it.skipIf(!local)('requires an API key, like the hosted gateway', async () => {
    const response = await fetch(`${supabaseUrl}/auth/v1/settings`)
    expect(response.status).toBe(401)
    const settings = await fetch(`${supabaseUrl}/auth/v1/settings`, { headers })
    expect(settings.status).toBe(200)
  })
})
