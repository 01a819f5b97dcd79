/**
 * Only same-site absolute paths may be redirected to: "//evil.com", "/\\evil.com" and full URLs
 * would send users off the site (open redirect).
 */
export function safeRedirectPath(to: FormDataEntryValue | string | null | undefined, fallback = '/'): string {
  if (typeof to !== 'string' || !to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) return fallback
  if (hasControlCharacter(to)) return fallback
  return to
}

/** C0 control characters (U+0000–U+001F: NUL, tab, line breaks…) never belong in a redirect path. */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) <= 0x1f) return true
  return false
}
