/**
 * Where the local auth server's mail goes: out through SMTP when SMTP_URL is set (a local SMTP
 * server stands in for the provider), otherwise into the local mailbox, served on its own
 * loopback port and never by the app (app/routes.ts has no mailbox route).
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { createClient } from '@supabase/supabase-js'
import getPort from 'get-port'
import pg from 'pg'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import routes from '#app/routes.ts'
import { startAuthServer, type AuthServer } from '#server/auth-server/index.ts'
import { startMailbox, type Mailbox } from '#server/mailbox.ts'

const databaseUrl = inject('databaseUrl')
const PASSWORD = 'correct horse 1'
const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadatlas-mail-'))
afterAll(() => fs.rmSync(keyDir, { recursive: true, force: true }))

const uniqueEmail = (label: string) => `mail-${label}-${crypto.randomUUID().slice(0, 8)}@example.com`

async function authServer(smtpUrl?: string): Promise<AuthServer> {
  return startAuthServer({ databaseUrl, siteUrl: 'http://127.0.0.1:5999', keyFile: path.join(keyDir, 'key.json'), smtpUrl, smtpFrom: 'LeadAtlas <no-reply@leadatlas.test>' })
}

function client(auth: AuthServer) {
  return createClient(auth.url, auth.anonKey, { auth: { persistSession: false, autoRefreshToken: false } })
}

async function signUp(auth: AuthServer, email: string) {
  const { error } = await client(auth).auth.signUp({ email, password: PASSWORD })
  expect(error).toBeNull()
}

describe('local mailbox', () => {
  let auth: AuthServer
  let mailbox: Mailbox
  beforeAll(async () => {
    auth = await authServer()
    mailbox = await startMailbox({ databaseUrl })
    return async () => {
      await mailbox.stop()
      await auth.stop()
    }
  })

  test('lists the reset email with its link, as JSON and HTML, on loopback only', async () => {
    const email = uniqueEmail('local')
    await signUp(auth, email)
    expect((await client(auth).auth.resetPasswordForEmail(email, { redirectTo: 'http://127.0.0.1:5999/reset-password' })).error).toBeNull()

    expect(new URL(mailbox.url).hostname).toBe('127.0.0.1')
    const { messages } = (await (await fetch(`${mailbox.url}/api/messages?to=${encodeURIComponent(email)}`)).json()) as {
      messages: Array<{ to: string; subject: string; link: string }>
    }
    expect(messages).toHaveLength(1)
    expect(messages[0]).toMatchObject({ to: email, subject: 'Reset your LeadAtlas password' })
    expect(new URL(messages[0]!.link).searchParams.get('token_hash')).toMatch(/^(pkce_)?[A-Za-z0-9_-]{43}$/)

    const html = await (await fetch(`${mailbox.url}/?to=${encodeURIComponent(email)}`)).text()
    expect(html).toContain(email)
    expect(html).toContain('Reset your LeadAtlas password')
    expect((await fetch(`${mailbox.url}/api/messages`, { method: 'POST' })).status).toBe(405)
  })

  test('the reset email is branded and in the language the person asked in, with the link and its expiry', async () => {
    const email = uniqueEmail('french')
    await signUp(auth, email)
    expect((await client(auth).auth.resetPasswordForEmail(email, { redirectTo: 'http://127.0.0.1:5999/reset-password?lang=fr' })).error).toBeNull()
    const { messages } = (await (await fetch(`${mailbox.url}/api/messages?to=${encodeURIComponent(email)}`)).json()) as {
      messages: Array<{ subject: string; text: string; link: string }>
    }
    expect(messages[0]).toMatchObject({ subject: 'Réinitialisez votre mot de passe LeadAtlas' })
    expect(messages[0]!.text).toContain('LeadAtlas')
    expect(messages[0]!.text).toContain('expire dans 60 minutes')
    expect(messages[0]!.text).toContain(messages[0]!.link)
  })

  test('answers only requests addressed to a loopback name with its port (no DNS rebinding)', async () => {
    const { port } = new URL(mailbox.url)
    /** GET with a chosen Host header (fetch cannot set one), over the loopback socket. */
    const statusFor = (host: string | undefined) =>
      new Promise<number>((resolve, reject) => {
        const request = http.get({ host: '127.0.0.1', port, path: '/api/messages', setHost: false, headers: host === undefined ? {} : { Host: host } }, (response) => {
          response.resume()
          resolve(response.statusCode ?? 0)
        })
        request.on('error', reject)
      })
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) expect(await statusFor(host), host).toBe(200)
    for (const host of [`evil.example:${port}`, 'evil.example', '127.0.0.1', `127.0.0.1:${Number(port) + 1}`, `127.0.0.1.nip.io:${port}`, '']) {
      expect(await statusFor(host), host).toBe(421)
    }
    // No Host at all: Node refuses it before the mailbox sees it.
    expect(await statusFor(undefined)).toBe(400)
  })

  test('the app has no mailbox route', () => {
    const paths = JSON.stringify(routes)
    expect(paths).not.toMatch(/outbox|mailbox/)
  })
})

describe('SMTP', () => {
  let smtp: SMTPServer
  let smtpPort: number
  const received: Array<{ from: string; to: string[]; raw: string }> = []
  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let raw = ''
        stream.setEncoding('utf8')
        stream.on('data', (chunk: string) => (raw += chunk))
        stream.on('end', () => {
          received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), raw })
          callback()
        })
      },
    })
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve))
    smtpPort = (smtp.server.address() as AddressInfo).port
    return () => new Promise<void>((resolve) => smtp.close(() => resolve()))
  })

  test('with SMTP_URL the reset email goes out through SMTP, not into the local mailbox', async () => {
    const auth = await authServer(`smtp://127.0.0.1:${smtpPort}`)
    try {
      const email = uniqueEmail('smtp')
      await signUp(auth, email)
      expect((await client(auth).auth.resetPasswordForEmail(email)).error).toBeNull()
      const mail = received.find((m) => m.to.includes(email))
      expect(mail).toBeDefined()
      expect(mail!.from).toBe('no-reply@leadatlas.test')
      expect(mail!.raw).toContain('Subject: Reset your LeadAtlas password')
      // The branded HTML part goes out too (the button and the expiry).
      expect(mail!.raw).toContain('Choose a new password')
      expect(mail!.raw).toMatch(/expires in 60\s*minutes/)
      expect(mail!.raw).toMatch(/token_hash=/)
      const mailbox = await startMailbox({ databaseUrl })
      try {
        const { messages } = (await (await fetch(`${mailbox.url}/api/messages?to=${encodeURIComponent(email)}`)).json()) as { messages: unknown[] }
        expect(messages).toEqual([])
      } finally {
        await mailbox.stop()
      }
    } finally {
      await auth.stop()
    }
  })

  test('an unreachable SMTP server is an error answer, not a crash or a hang, and leaves no token behind', async () => {
    const auth = await authServer(`smtp://127.0.0.1:${await getPort()}`)
    try {
      const email = uniqueEmail('down')
      await signUp(auth, email)
      const { error } = await client(auth).auth.resetPasswordForEmail(email)
      expect(error?.status).toBe(500)
      expect(error?.message).toBe('Error sending recovery email')
      const db = new pg.Client({ connectionString: databaseUrl })
      await db.connect()
      const { rows } = await db.query('select recovery_token from auth.users where email = $1', [email]).finally(() => db.end())
      expect(rows[0]?.recovery_token).toBeNull()
      // Still serving.
      expect((await fetch(`${auth.url}/auth/v1/health`)).status).toBe(200)
    } finally {
      await auth.stop()
    }
  })
})
