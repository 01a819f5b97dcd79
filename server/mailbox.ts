/**
 * The local mailbox: what the local auth server "sent" (password-reset emails), on its own
 * loopback-only port, like Supabase's local Mailpit. Never served by the app: anyone who can
 * read it can reset any local account, so it exists only for the developer on this machine.
 *   GET /                          the messages, newest first (HTML)
 *   GET /api/messages?to=<email>   the same as JSON (what the tests read)
 * Loopback binding alone is not enough: a web page can point its own name at 127.0.0.1 (DNS rebinding) and read
 * the reset links same-origin. Such requests carry that name as Host, so only loopback names with our port answer.
 */
import http from 'node:http'
import getPort from 'get-port'
import { readOutbox, type OutboxEmail } from './auth-server/outbox.ts'

export interface Mailbox {
  url: string
  stop: () => Promise<void>
}

const HOST = '127.0.0.1'

export async function startMailbox({ databaseUrl, port: wantedPort }: { databaseUrl: string; port?: number }): Promise<Mailbox> {
  const port = await getPort({ host: HOST, port: wantedPort })
  const hosts = new Set([`${HOST}:${port}`, `localhost:${port}`, `[::1]:${port}`])
  const server = http.createServer((req, res) => {
    if (!hosts.has((req.headers.host ?? '').toLowerCase())) {
      res.writeHead(421, { 'Content-Type': 'text/plain' }).end('Misdirected request: the local mailbox answers on loopback names only')
      return
    }
    void answer(databaseUrl, req, res).catch((error: unknown) => {
      console.error('[mailbox]', error)
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' }).end('Mailbox unavailable')
      else res.destroy()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, HOST, () => {
      server.off('error', reject)
      resolve()
    })
  })
  return {
    url: `http://${HOST}:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

async function answer(databaseUrl: string, req: http.IncomingMessage, res: http.ServerResponse) {
  const url = new URL(req.url ?? '/', `http://${HOST}`)
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain' }).end('Method not allowed')
    return
  }
  const to = url.searchParams.get('to') || undefined
  if (url.pathname === '/api/messages') {
    const messages = (await readOutbox(databaseUrl, { to, limit: 50 })).map(toJson)
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }).end(JSON.stringify({ messages }))
    return
  }
  if (url.pathname === '/') {
    const messages = await readOutbox(databaseUrl, { to, limit: 50 })
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(page(messages))
    return
  }
  res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found')
}

function toJson(email: OutboxEmail) {
  return { id: email.id, to: email.to_email, subject: email.subject, text: email.body_text, link: email.link, createdAt: new Date(email.created_at).toISOString() }
}

const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)

function page(messages: OutboxEmail[]) {
  const items = messages
    .map(
      (m) => `<li><p><strong>${escape(m.subject)}</strong> — to ${escape(m.to_email)} — ${escape(new Date(m.created_at).toISOString())}</p>
<pre>${escape(m.body_text)}</pre>${m.link ? `<p><a href="${escape(m.link)}">Open the link</a></p>` : ''}</li>`,
    )
    .join('\n')
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>LeadAtlas local mailbox</title>
<style>body{font:14px system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#0f172a}li{list-style:none;border:1px solid #e2e8f0;border-radius:.5rem;padding:1rem;margin:.75rem 0}pre{white-space:pre-wrap;word-break:break-all;color:#475569}</style>
</head><body><h1>Local mailbox</h1><p>Emails sent by the local auth server (development only, this machine only).</p>
${messages.length ? `<ul>${items}</ul>` : '<p>No emails yet.</p>'}</body></html>`
}
