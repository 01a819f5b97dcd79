/**
 * The optional SMTP mailbox check (EMAIL_SMTP_CHECK, off by default): one session with the domain's preferred mail
 * host, no message sent. EHLO, MAIL FROM:<>, RCPT TO a random address of the domain (accepted → the domain takes any
 * address: every address is catch_all), then RCPT TO each address (2xx accepted, 5xx rejected, else unknown), QUIT.
 * A connection error or timeout makes every address unknown (risky): an unreachable port 25 proves nothing.
 *
 * MX records are as hostile as crawled URLs (anyone can point theirs at 127.0.0.1 or a cloud metadata address), so
 * the mail host passes the crawler's private-address guard (ssrf.ts) on every address it resolves to, unless
 * allow-listed (EMAIL_SMTP_ALLOW_HOSTS, for tests). A refused host is never contacted: its addresses stay unknown
 * (risky), never valid. The socket opens to the vetted IP itself, so no second resolution can rebind the name.
 */
import { randomBytes } from 'node:crypto'
import { isIP, Socket } from 'node:net'
import type { MailboxAnswer } from '#app/domain/email-quality.ts'
import type { MailDns } from './email-verification.ts'
import { blockedAddressReason, blockedHostnameReason, GuardError, normalizeHostname, type HostAllowList } from './ssrf.ts'

export interface MailboxProbe {
  dns: MailDns
  /** The domain's mail hosts by preference: the first is asked. */
  hosts: string[]
  domain: string
  emails: string[]
  port: number
  timeoutMs: number
  heloName: string
  /** Mail hosts (name or address, optionally with the port) that may be private: test servers. */
  allowList: HostAllowList
  signal?: AbortSignal
}

interface Reply {
  code: number
  text: string
}

/** Reads SMTP replies (multi-line: "250-…" lines then "250 …") off a socket. */
function replyReader(socket: Socket) {
  let buffer = ''
  let lines: string[] = []
  const waiting: Array<{ resolve: (reply: Reply) => void; reject: (error: Error) => void }> = []
  const ready: Reply[] = []
  let failure: Error | null = null
  const fail = (error: Error) => {
    failure = error
    for (const waiter of waiting.splice(0)) waiter.reject(error)
  }
  socket.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('latin1')
    let newline: number
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline).replace(/\r$/, '')
      buffer = buffer.slice(newline + 1)
      lines.push(line)
      if (/^\d{3}-/.test(line)) continue
      const reply = { code: Number(line.slice(0, 3)) || 0, text: lines.join('\n') }
      lines = []
      const waiter = waiting.shift()
      if (waiter) waiter.resolve(reply)
      else ready.push(reply)
    }
  })
  socket.on('error', fail)
  socket.on('close', () => fail(new Error('SMTP connection closed')))
  return (): Promise<Reply> => {
    const next = ready.shift()
    if (next) return Promise.resolve(next)
    if (failure) return Promise.reject(failure)
    return new Promise((resolve, reject) => waiting.push({ resolve, reject }))
  }
}

/**
 * The address to open the session to. Every A and AAAA answer must be public (or the host or that address
 * allow-listed on this port): one private answer among public ones refuses the host, since its owner chose both.
 */
async function vettedMailHostAddress(dns: MailDns, hostname: string, port: number, allowList: HostAllowList): Promise<string> {
  const host = normalizeHostname(hostname)
  const hostAllowed = allowList.allows(host, port)
  if (!hostAllowed && !isIP(host)) {
    const reason = blockedHostnameReason(host)
    if (reason) throw new GuardError('blocked_address', `${host}: ${reason}`)
  }
  const [v4, v6] = isIP(host) ? [[host], []] : await Promise.all([dns.resolve4(host).catch(() => []), dns.resolve6(host).catch(() => [])])
  const addresses = [...v4, ...v6]
  if (addresses.length === 0) throw new Error(`no address for ${host}`)
  for (const address of addresses) {
    if (hostAllowed || allowList.allows(address, port)) continue
    const reason = blockedAddressReason(address)
    if (reason) throw new GuardError('blocked_address', `${host} resolves to ${address}: ${reason}`)
  }
  return addresses[0] as string
}

function answerOf(code: number): MailboxAnswer {
  if (code >= 200 && code < 300) return 'accepted'
  if (code >= 500 && code < 600) return 'rejected'
  return 'unknown'
}

async function session(probe: MailboxProbe, socket: Socket): Promise<Record<string, MailboxAnswer>> {
  const next = replyReader(socket)
  const command = async (line: string): Promise<Reply> => {
    socket.write(`${line}\r\n`)
    return next()
  }
  const expect2xx = (reply: Reply, step: string) => {
    if (reply.code < 200 || reply.code >= 300) throw new Error(`SMTP ${step}: ${reply.text}`)
  }
  expect2xx(await next(), 'greeting')
  expect2xx(await command(`EHLO ${probe.heloName}`), 'EHLO')
  expect2xx(await command('MAIL FROM:<>'), 'MAIL FROM')
  const random = `la-verify-${randomBytes(6).toString('hex')}@${probe.domain}`
  const catchAll = answerOf((await command(`RCPT TO:<${random}>`)).code) === 'accepted'
  const answers: Record<string, MailboxAnswer> = {}
  for (const email of probe.emails) {
    answers[email] = catchAll ? 'catch_all' : answerOf((await command(`RCPT TO:<${email}>`)).code)
  }
  socket.write('QUIT\r\n')
  return answers
}

/** Each address's answer; every one `unknown` when the session fails. Rejects only on abort. */
export async function probeMailboxes(probe: MailboxProbe): Promise<Record<string, MailboxAnswer>> {
  const unknown = Object.fromEntries(probe.emails.map((email) => [email, 'unknown' as const]))
  const host = probe.hosts[0]
  if (!host) return unknown
  const socket = new Socket()
  // Errors settle through the reply reader (or the catch below): never an unhandled 'error' event.
  socket.on('error', () => {})
  const timer = setTimeout(() => socket.destroy(new Error('SMTP timeout')), probe.timeoutMs)
  const onAbort = () => socket.destroy(new Error('aborted'))
  probe.signal?.addEventListener('abort', onAbort, { once: true })
  try {
    const address = await vettedMailHostAddress(probe.dns, host, probe.port, probe.allowList)
    socket.connect({ host: address, port: probe.port })
    return await session(probe, socket)
  } catch {
    probe.signal?.throwIfAborted()
    return unknown
  } finally {
    clearTimeout(timer)
    probe.signal?.removeEventListener('abort', onAbort)
    socket.end()
    socket.destroy()
  }
}
