/**
 * Only same-site absolute paths may be redirected to: "//evil.com", "/\\evil.com" and full URLs
 * would send users off the site (open redirect).
 */
export function safeRedirectPath(to: FormDataEntryValue | string | null | undefined, fallback = '/'): string {
  if (typeof to !== 'string' || !to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) return fallback
  if (/[\u0000-\u001f]/.test(to)) return fallback
  return to
}
