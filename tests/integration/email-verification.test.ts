// Email verification against a local DNS server (dns2 on loopback) and a local SMTP server (smtp-server): the real
// node:dns Resolver and SMTP dialogue, never the internet.
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import dns2 from 'dns2'
import { SMTPServer } from 'smtp-server'
import { createEmailVerifier, verifyFoundEmails, type EmailVerifier } from '#app/.server/enrichment/email-verification.ts'
import { createDefaultEnrichers } from '#app/.server/exports/default-enrichers.ts'
import { parseEnv } from '#app/.server/env.server.ts'

const { Packet } = dns2

type Answer = { type: 'MX'; exchange: string } | { type: 'A'; address: string }
/** The zone: name → answers; `NXDOMAIN` / `SERVFAIL` / `SILENT` (never answers, a timeout). */
const ZONE: Record<string, Answer[] | 'NXDOMAIN' | 'SERVFAIL' | 'SILENT'> = {
  'good.test': [{ type: 'MX', exchange: 'mx.good.test' }],
  'mx.good.test': [{ type: 'A', address: '127.0.0.1' }],
  'catchall.test': [{ type: 'MX', exchange: 'mx.good.test' }],
  'fallback.test': [{ type: 'A', address: '127.0.0.1' }],
  'nomail.test': [],
  'missing.test': 'NXDOMAIN',
  'broken.test': 'SERVFAIL',
  'slow.test': 'SILENT',
  'nosmtp.test': [{ type: 'MX', exchange: 'mx.nosmtp.test' }],
  'mx.nosmtp.test': [{ type: 'A', address: '127.0.0.2' }],
  // One allow-listed answer, one private one: the host is refused (every address is vetted).
  'mixed.test': [{ type: 'MX', exchange: 'mx.mixed.test' }],
  'mx.mixed.test': [{ type: 'A', address: '127.0.0.1' }, { type: 'A', address: '10.0.0.1' }],
  // The canary (EMAIL_DNS_CANARY's default): a working resolver answers it, so its NXDOMAIN answers are believed.
  'gmail.com': [{ type: 'MX', exchange: 'gmail-smtp-in.l.google.com' }],
}
const queries: string[] = []

let dnsServer: ReturnType<typeof dns2.createServer>
let dnsAddress: string
/** A lying resolver (a sandbox, a broken corporate DNS): every name is NXDOMAIN, the canary included. */
let lyingServer: ReturnType<typeof dns2.createServer>
let lyingAddress: string
const lyingQueries: string[] = []
let smtp: SMTPServer
let smtpPort: number
/** SMTP sessions the local server was asked to open. */
let smtpConnections = 0
const MAILBOXES = new Set(['jean@good.test', 'contact@good.test'])

beforeAll(async () => {
  dnsServer = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request)
      const [question] = request.questions
      const name = (question?.name ?? '').toLowerCase()
      const entry = ZONE[name] ?? 'NXDOMAIN'
      queries.push(`${name}/${question?.type}`)
      if (entry === 'SILENT') return
      if (entry === 'NXDOMAIN') response.header.rcode = Packet.RCODE.NXDOMAIN
      else if (entry === 'SERVFAIL') response.header.rcode = Packet.RCODE.SERVFAIL
      else {
        for (const answer of entry) {
          if (answer.type === 'MX' && question?.type === Packet.TYPE.MX) response.answers.push({ name, type: Packet.TYPE.MX, class: Packet.CLASS.IN, ttl: 60, exchange: answer.exchange, priority: 10 } as never)
          if (answer.type === 'A' && question?.type === Packet.TYPE.A) response.answers.push({ name, type: Packet.TYPE.A, class: Packet.CLASS.IN, ttl: 60, address: answer.address } as never)
        }
      }
      void send(response)
    },
  })
  const addresses = await dnsServer.listen({ udp: { port: 0, address: '127.0.0.1' } })
  dnsAddress = `127.0.0.1:${addresses.udp?.port}`

  lyingServer = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request)
      const [question] = request.questions
      lyingQueries.push(`${(question?.name ?? '').toLowerCase()}/${question?.type}`)
      response.header.rcode = Packet.RCODE.NXDOMAIN
      void send(response)
    },
  })
  const lying = await lyingServer.listen({ udp: { port: 0, address: '127.0.0.1' } })
  lyingAddress = `127.0.0.1:${lying.udp?.port}`

  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onConnect(_session, callback) {
      smtpConnections += 1
      callback()
    },
    onRcptTo(address, _session, callback) {
      const email = address.address.toLowerCase()
      if (email.endsWith('@catchall.test') || MAILBOXES.has(email)) return callback()
      if (email.startsWith('busy@')) return callback(Object.assign(new Error('Try again later'), { responseCode: 451 }))
      callback(Object.assign(new Error('No such user'), { responseCode: 550 }))
    },
  })
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve))
  smtpPort = (smtp.server.address() as AddressInfo).port
})

afterAll(async () => {
  await dnsServer?.close()
  await lyingServer?.close()
  await new Promise<void>((resolve) => smtp.close(() => resolve()))
})

const statuses = async (verifier: EmailVerifier, emails: string[]) =>
  Object.fromEntries(Object.entries(await verifier.verify(emails)).map(([email, check]) => [email, check.reason ? `${check.status}:${check.reason}` : check.status]))

describe('DNS (node:dns Resolver, local server)', () => {
  const verifier = () => createEmailVerifier({ dnsServers: [dnsAddress], dnsTimeoutMs: 300 })

  it('MX, A fallback, no record, NXDOMAIN, SERVFAIL and timeout', async () => {
    expect(
      await statuses(verifier(), [
        'jean@good.test',
        'contact@fallback.test',
        'info@nomail.test',
        'paul@missing.test',
        'marie@broken.test',
        'luc@slow.test',
        'x@yopmail.com',
      ]),
    ).toEqual({
      'jean@good.test': 'valid',
      'contact@fallback.test': 'valid',
      'info@nomail.test': 'invalid:no_mail',
      'paul@missing.test': 'invalid:no_mail',
      'marie@broken.test': 'risky:dns_unavailable',
      'luc@slow.test': 'risky:dns_unavailable',
      // Disposable: decided from the list, no DNS query.
      'x@yopmail.com': 'invalid:disposable',
    })
    expect(queries.some((query) => query.startsWith('yopmail.com'))).toBe(false)
  })

  it('asks DNS once per domain (cache, shared in-flight lookups)', async () => {
    const cached = verifier()
    queries.length = 0
    await cached.verify(['a@good.test', 'b@good.test'])
    await cached.verify(['c@good.test'])
    expect(queries.filter((query) => query.startsWith('good.test/'))).toHaveLength(1)
    // A domain that resolves never needs the canary.
    expect(queries.filter((query) => query.startsWith('gmail.com/'))).toEqual([])
  })

  it('believes an NXDOMAIN once the canary resolves: asked once for concurrent denials, then remembered', async () => {
    const checked = verifier()
    queries.length = 0
    expect(await statuses(checked, ['paul@missing.test', 'info@nomail.test', 'x@other-missing.test'])).toEqual({
      'paul@missing.test': 'invalid:no_mail',
      'info@nomail.test': 'invalid:no_mail',
      'x@other-missing.test': 'invalid:no_mail',
    })
    expect(await statuses(checked, ['y@third-missing.test'])).toEqual({ 'y@third-missing.test': 'invalid:no_mail' })
    // Three denied domains at once and a fourth later: one canary query (MX) within the minute.
    expect(queries.filter((query) => query.startsWith('gmail.com/'))).toEqual([`gmail.com/${Packet.TYPE.MX}`])
  })

  it('a lying resolver (every name NXDOMAIN, the canary too): addresses are unverified and kept, never invalid or valid', async () => {
    const lied = createEmailVerifier({ dnsServers: [lyingAddress], dnsTimeoutMs: 300 })
    lyingQueries.length = 0
    const emails = ['jean@good.test', 'contact@boulangerie-martin.fr', 'info@orange.fr']
    expect(await statuses(lied, emails)).toEqual({
      'jean@good.test': 'unverified:dns_unusable',
      'contact@boulangerie-martin.fr': 'unverified:dns_unusable',
      'info@orange.fr': 'unverified:dns_unusable',
    })
    expect(await verifyFoundEmails(lied, emails)).toMatchObject({ kept: emails })
    // Per domain MX, A, AAAA; the canary once for all three.
    expect(lyingQueries.filter((query) => query.startsWith('gmail.com/'))).toHaveLength(1)
    expect(lyingQueries).toHaveLength(3 * 3 + 1)
    // Syntax and disposable domains need no DNS: still invalid.
    expect(await statuses(lied, ['bad..dots@good.test', 'x@yopmail.com'])).toEqual({ 'bad..dots@good.test': 'invalid:syntax', 'x@yopmail.com': 'invalid:disposable' })
  })

  it('a silent canary (no answer) makes DNS unusable too; EMAIL_DNS_CANARY names it', async () => {
    const env = { EMAIL_DNS_SERVERS: dnsAddress, EMAIL_DNS_TIMEOUT_MS: '300', EMAIL_DNS_CANARY: 'slow.test' }
    expect(await statuses(createDefaultEnrichers(parseEnv(env)).emailVerifier!, ['paul@missing.test'])).toEqual({ 'paul@missing.test': 'unverified:dns_unusable' })
    const answered = { ...env, EMAIL_DNS_CANARY: 'good.test' }
    expect(await statuses(createDefaultEnrichers(parseEnv(answered)).emailVerifier!, ['paul@missing.test'])).toEqual({ 'paul@missing.test': 'invalid:no_mail' })
  })

  it('the default enrichers use EMAIL_DNS_SERVERS (even with the demo source)', async () => {
    const { emailVerifier } = createDefaultEnrichers(parseEnv({ LEADS_SOURCE: 'demo', EMAIL_DNS_SERVERS: dnsAddress, EMAIL_DNS_TIMEOUT_MS: '300' }))
    expect(await statuses(emailVerifier!, ['jean@good.test', 'paul@missing.test'])).toEqual({ 'jean@good.test': 'valid', 'paul@missing.test': 'invalid:no_mail' })
  })
})

describe('SMTP mailbox check (EMAIL_SMTP_CHECK, local server)', () => {
  // The zone points every MX at loopback: only allow-listed, as EMAIL_SMTP_ALLOW_HOSTS does in tests.
  const smtpOptions = (allowHosts = [`127.0.0.1:${smtpPort}`]) => ({ port: smtpPort, timeoutMs: 2_000, heloName: 'leadatlas.test', allowHosts })
  const verifier = () => createEmailVerifier({ dnsServers: [dnsAddress], dnsTimeoutMs: 300, smtp: smtpOptions() })

  it('a mail host on a private address is never contacted without the allow-list, and the address is not valid', async () => {
    const before = smtpConnections
    const guarded = createEmailVerifier({ dnsServers: [dnsAddress], dnsTimeoutMs: 300, smtp: smtpOptions([]) })
    expect(await statuses(guarded, ['jean@good.test', 'contact@fallback.test', 'anyone@catchall.test'])).toEqual({
      'jean@good.test': 'risky:smtp_unavailable',
      'contact@fallback.test': 'risky:smtp_unavailable',
      'anyone@catchall.test': 'risky:smtp_unavailable',
    })
    // An allow-list for another port, or for the MX name on another port, does not open the way either.
    const elsewhere = createEmailVerifier({ dnsServers: [dnsAddress], dnsTimeoutMs: 300, smtp: smtpOptions([`127.0.0.1:${smtpPort + 1}`, `mx.good.test:${smtpPort + 1}`]) })
    expect(await statuses(elsewhere, ['jean@good.test'])).toEqual({ 'jean@good.test': 'risky:smtp_unavailable' })
    // The allow-listed address is not enough when the name also resolves to another private address.
    expect(await statuses(verifier(), ['jean@mixed.test'])).toEqual({ 'jean@mixed.test': 'risky:smtp_unavailable' })
    expect(smtpConnections).toBe(before)
    // The same through the environment: EMAIL_SMTP_ALLOW_HOSTS unset.
    const env = { EMAIL_DNS_SERVERS: dnsAddress, EMAIL_DNS_TIMEOUT_MS: '300', EMAIL_SMTP_CHECK: 'true', EMAIL_SMTP_PORT: String(smtpPort) }
    expect(await statuses(createDefaultEnrichers(parseEnv(env)).emailVerifier!, ['jean@good.test'])).toEqual({ 'jean@good.test': 'risky:smtp_unavailable' })
    expect(smtpConnections).toBe(before)
    // Allow-listed by the MX name instead of its address: the session opens.
    const byName = createEmailVerifier({ dnsServers: [dnsAddress], dnsTimeoutMs: 300, smtp: smtpOptions([`mx.good.test:${smtpPort}`]) })
    expect(await statuses(byName, ['jean@good.test'])).toEqual({ 'jean@good.test': 'valid' })
    expect(smtpConnections).toBe(before + 1)
  })

  it('accepted → valid, refused → invalid, catch-all → risky, a temporary refusal → risky', async () => {
    expect(await statuses(verifier(), ['jean@good.test', 'contact@good.test', 'nobody@good.test', 'busy@good.test', 'anyone@catchall.test'])).toEqual({
      'jean@good.test': 'valid',
      'contact@good.test': 'valid',
      'nobody@good.test': 'invalid:mailbox_refused',
      'busy@good.test': 'risky:smtp_unavailable',
      'anyone@catchall.test': 'risky:catch_all',
    })
  })

  it('an unreachable mail server makes the address risky, not invalid', async () => {
    const closed = createEmailVerifier({ dnsServers: [dnsAddress], dnsTimeoutMs: 300, smtp: { port: 1, timeoutMs: 1_000, heloName: 'leadatlas.test', allowHosts: ['127.0.0.1:1', '127.0.0.2:1'] } })
    expect(await statuses(closed, ['jean@good.test', 'x@nosmtp.test'])).toEqual({ 'jean@good.test': 'risky:smtp_unavailable', 'x@nosmtp.test': 'risky:smtp_unavailable' })
  })

  it('off by default: EMAIL_SMTP_CHECK=true with EMAIL_SMTP_PORT turns it on', async () => {
    const env = { EMAIL_DNS_SERVERS: dnsAddress, EMAIL_DNS_TIMEOUT_MS: '300' }
    const off = createDefaultEnrichers(parseEnv(env)).emailVerifier!
    const on = createDefaultEnrichers(parseEnv({ ...env, EMAIL_SMTP_CHECK: 'true', EMAIL_SMTP_PORT: String(smtpPort), EMAIL_SMTP_ALLOW_HOSTS: `127.0.0.1:${smtpPort}` })).emailVerifier!
    expect(await statuses(off, ['nobody@good.test'])).toEqual({ 'nobody@good.test': 'valid' })
    expect(await statuses(on, ['nobody@good.test'])).toEqual({ 'nobody@good.test': 'invalid:mailbox_refused' })
  })
})
