/**
 * Where an email link may send the user: `redirect_to` when its origin is the site's or an
 * explicitly allowed one, otherwise the site URL. Anything else would be an open redirect
 * carrying a live recovery token to a foreign host.
 */
export function resolveRedirect(
  redirectTo: string | null | undefined,
  { siteUrl, allowedOrigins }: { siteUrl: string; allowedOrigins: readonly string[] },
): string {
  if (!redirectTo) return siteUrl
  let target: URL
  try {
    target = new URL(redirectTo)
  } catch {
    return siteUrl
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return siteUrl
  const allowed = new Set([new URL(siteUrl).origin, ...allowedOrigins.map((origin) => new URL(origin).origin)])
  return allowed.has(target.origin) ? target.href : siteUrl
}

/** Appends query parameters to a URL, keeping the ones it already has. */
export function withQuery(url: string, params: Record<string, string>) {
  const target = new URL(url)
  for (const [key, value] of Object.entries(params)) target.searchParams.set(key, value)
  return target.href
}
