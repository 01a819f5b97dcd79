/**
 * A local OAuth 2.0 authorization server as HubSpot, Pipedrive and Google run theirs for the authorization-code flow:
 * GET /authorize approves at once (a user clicking "Allow") and redirects to `redirect_uri` with a code and the
 * state; POST /token exchanges a code once, or a refresh token, for `{access_token, refresh_token, expires_in}`,
 * authenticating the client in the form or with HTTP Basic. `?deny=1` on /authorize plays a user clicking "Deny".
 * node:http only: used by integration tests and the e2e run.
 */
import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface FakeOAuth {
  url: string
  authorizeUrl: string
  tokenUrl: string
  /** Token requests by grant type. */
  grants: Array<{ grant: string; clientId: string | null }>
  close(): Promise<void>
}

export interface FakeOAuthOptions {
  clientId: string
  clientSecret: string
  /** The access token handed out (the fake CRM must accept it); default one per code. */
  accessToken?: (code: string) => string
  expiresIn?: number
  /** Pipedrive answers the company's API host with the tokens. */
  apiDomain?: string
  /** Default: a free port. */
  port?: number
}

function clientOf(request: http.IncomingMessage, form: URLSearchParams): { id: string | null; secret: string | null } {
  const basic = /^Basic\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]
  if (basic) {
    const [id, secret] = Buffer.from(basic, 'base64').toString().split(':')
    return { id: id ?? null, secret: secret ?? null }
  }
  return { id: form.get('client_id'), secret: form.get('client_secret') }
}

export async function startFakeOAuth(options: FakeOAuthOptions): Promise<FakeOAuth> {
  const codes = new Map<string, string>()
  const refreshTokens = new Map<string, string>()
  const grants: FakeOAuth['grants'] = []
  const json = (response: http.ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' })
    response.end(JSON.stringify(body))
  }
  const issue = (response: http.ServerResponse, accessToken: string) => {
    const refresh = `refresh-${crypto.randomUUID()}`
    refreshTokens.set(refresh, accessToken)
    json(response, 200, { access_token: accessToken, refresh_token: refresh, expires_in: options.expiresIn ?? 1800, token_type: 'bearer', ...(options.apiDomain ? { api_domain: options.apiDomain } : {}) })
  }
  const server = http.createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake')
    if (request.method === 'GET' && url.pathname === '/authorize') {
      const redirect = new URL(url.searchParams.get('redirect_uri') ?? 'http://invalid')
      if (url.searchParams.get('client_id') !== options.clientId) return json(response, 400, { error: 'invalid_client' })
      if (url.searchParams.get('deny') === '1') redirect.searchParams.set('error', 'access_denied')
      else {
        const code = `code-${crypto.randomUUID()}`
        codes.set(code, options.accessToken?.(code) ?? `access-${code}`)
        redirect.searchParams.set('code', code)
      }
      redirect.searchParams.set('state', url.searchParams.get('state') ?? '')
      response.writeHead(302, { location: redirect.toString() })
      return response.end()
    }
    if (request.method === 'POST' && url.pathname === '/token') {
      const chunks: Buffer[] = []
      for await (const chunk of request) chunks.push(chunk as Buffer)
      const form = new URLSearchParams(Buffer.concat(chunks).toString())
      const client = clientOf(request, form)
      grants.push({ grant: form.get('grant_type') ?? '', clientId: client.id })
      if (client.id !== options.clientId || client.secret !== options.clientSecret) return json(response, 401, { error: 'invalid_client', error_description: 'Client authentication failed' })
      if (form.get('grant_type') === 'authorization_code') {
        const token = codes.get(form.get('code') ?? '')
        if (!token) return json(response, 400, { error: 'invalid_grant', error_description: 'Authorization code is invalid or expired' })
        codes.delete(form.get('code')!)
        return issue(response, token)
      }
      if (form.get('grant_type') === 'refresh_token') {
        const token = refreshTokens.get(form.get('refresh_token') ?? '')
        if (!token) return json(response, 400, { error: 'invalid_grant', error_description: 'Refresh token is invalid' })
        return issue(response, token)
      }
      return json(response, 400, { error: 'unsupported_grant_type' })
    }
    json(response, 404, { error: 'not_found' })
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    authorizeUrl: `${url}/authorize`,
    tokenUrl: `${url}/token`,
    grants,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
