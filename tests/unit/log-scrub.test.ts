import { expect, test } from 'vitest'
import { scrubText, scrubUrl, scrubValue } from '#app/.server/observability/scrub.ts'
import { bearerMatches } from '#app/.server/observability/metrics.ts'
import { routeLabel } from '#app/.server/observability/route-label.ts'

test('email addresses are removed from messages, whatever their case or sub-addressing', () => {
  expect(scrubText('reset sent to Jean.Dupont+leads@Example.co.uk, retry for a@b.fr')).toBe('reset sent to [email], retry for [email]')
  expect(scrubText('no address @ here, nor user@localhost')).toBe('no address @ here, nor user@localhost')
  expect(scrubText('postgres://app:***@127.0.0.1:54329/leadatlas')).toBe('postgres://app:***@127.0.0.1:54329/leadatlas')
})

test('URLs: secret parameters blanked, addresses removed (also percent-encoded), the rest kept', () => {
  expect(scrubUrl('/reset-password?token_hash=abc123&type=recovery&lang=fr')).toBe('/reset-password?token_hash=[redacted]&type=recovery&lang=fr')
  expect(scrubUrl('/login?email=jean%40example.com&redirectTo=%2Fexports')).toBe('/login?email=%5Bemail%5D&redirectTo=%2Fexports')
  expect(scrubUrl('/api/v1/leads?api_key=la_secret&access_token=x&code=1234&password=hunter2')).toBe('/api/v1/leads?api_key=[redacted]&access_token=[redacted]&code=[redacted]&password=[redacted]')
  expect(scrubUrl('/users/jean%40example.com/profile')).toBe('/users/[email]/profile')
  expect(scrubUrl('/exports/0b7ae0c4-7f1c-4f57-9a53-3f7b1c8d2e10')).toBe('/exports/0b7ae0c4-7f1c-4f57-9a53-3f7b1c8d2e10')
  expect(scrubUrl('/%E0%A4%A')).toBe('/%E0%A4%A')
})

test("a team invitation's link is its credential: the token in its path is blanked", () => {
  const token = 'Q2hhbmdlIG1lIHRvIGEgcmFuZG9tIDI1Ni1iaXQgdG9rZW4x'
  expect(scrubUrl(`/invitations/${token}`)).toBe('/invitations/[redacted]')
  expect(scrubUrl(`/invitations/${token}.data?_routes=routes%2Finvitations`)).toBe('/invitations/[redacted]?_routes=routes%2Finvitations')
  expect(scrubUrl(`/login?mode=signup&redirectTo=%2Finvitations%2F${token}`)).toBe('/login?mode=signup&redirectTo=%2Finvitations%2F%5Bredacted%5D')
  expect(scrubUrl('/settings/team/activity')).toBe('/settings/team/activity')
})

test('log fields: nested strings and errors are scrubbed', () => {
  const error = new Error('SMTP refused jean@example.com')
  expect(scrubValue({ msg: 'for a@b.fr', nested: { list: ['c@d.fr', 3] }, err: error })).toEqual({
    msg: 'for [email]',
    nested: { list: ['[email]', 3] },
    err: { type: 'Error', message: 'SMTP refused [email]', stack: expect.not.stringContaining('jean@example.com') },
  })
})

test('log fields: a class instance is left to the serializers, a URL is scrubbed, an address after a long run is still found', () => {
  class Response {
    statusCode = 200
    owner = 'jean@example.com'
  }
  const response = new Response()
  expect(scrubValue({ res: response }, 0)).toEqual({ res: response })
  expect((scrubValue({ res: response }) as { res: unknown }).res).toBe(response)
  expect(scrubValue({ link: new URL('https://app.example/login?email=jean%40example.com&token=abc') })).toEqual({ link: 'https://app.example/login?email=%5Bemail%5D&token=[redacted]' })
  const token = 'a'.repeat(5000)
  expect(scrubText(`${token} then ${token}x@example.com`)).toBe(`${token} then [email]`)
  expect(scrubText(token)).toBe(token)
})

test('the metrics token is compared whole, only as a bearer token', () => {
  const token = 'metrics-token-0123456789'
  expect(bearerMatches(`Bearer ${token}`, token)).toBe(true)
  expect(bearerMatches(`bearer  ${token}`, token)).toBe(true)
  expect(bearerMatches(`Bearer ${token.slice(0, -1)}`, token)).toBe(false)
  expect(bearerMatches(`Bearer ${token}0`, token)).toBe(false)
  expect(bearerMatches(token, token)).toBe(false)
  expect(bearerMatches(undefined, token)).toBe(false)
})

test('route labels are route ids, never the URL with its ids', () => {
  const routes = {
    root: { id: 'root', path: '' },
    'routes/login': { id: 'routes/login', parentId: 'root', path: 'login' },
    'routes/app-layout': { id: 'routes/app-layout', parentId: 'root' },
    search: { id: 'search', parentId: 'routes/app-layout', index: true },
    'routes/export-detail': { id: 'routes/export-detail', parentId: 'routes/app-layout', path: 'exports/:id' },
    'routes/api.v1.$': { id: 'routes/api.v1.$', parentId: 'root', path: 'api/v1/*' },
    'routes/not-found': { id: 'routes/not-found', parentId: 'root', path: '*' },
  } as never
  const build = { routes }
  expect(routeLabel(build, '/exports/0b7ae0c4-7f1c-4f57-9a53-3f7b1c8d2e10')).toBe('routes/export-detail')
  expect(routeLabel(build, '/exports/0b7ae0c4-7f1c-4f57-9a53-3f7b1c8d2e10.data')).toBe('routes/export-detail')
  expect(routeLabel(build, '/')).toBe('search')
  expect(routeLabel(build, '/_root.data')).toBe('search')
  expect(routeLabel(build, '/login')).toBe('routes/login')
  expect(routeLabel(build, '/api/v1/exports/123/leads')).toBe('routes/api.v1.$')
  expect(routeLabel(build, '/no/such/page')).toBe('routes/not-found')
  expect(routeLabel(build, '/%E0%A4%A/%ZZ')).toBe('routes/not-found')
})
