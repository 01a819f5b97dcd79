/**
 * Social profile links: which network a URL belongs to, and whether it is a profile (not a share button, an intent,
 * a post, a video or the network's home page).
 */

export type SocialNetworkName = 'facebook' | 'linkedin' | 'twitter' | 'instagram' | 'tiktok' | 'youtube'

const FACEBOOK_RESERVED = new Set([
  'sharer', 'sharer.php', 'share', 'share.php', 'dialog', 'plugins', 'tr', 'login', 'login.php', 'home.php', 'policies', 'privacy',
  'help', 'legal', 'watch', 'events', 'hashtag', 'search', 'marketplace', 'gaming', 'business', 'ads', 'settings', 'l.php', 'photo.php',
  'photo', 'photos', 'story.php', 'permalink.php', 'v2.0', 'v3.0', 'recover', 'reg', 'signup', 'terms', 'about', 'careers', 'fundraisers',
])
const TWITTER_RESERVED = new Set([
  'intent', 'share', 'home', 'search', 'hashtag', 'i', 'login', 'signup', 'explore', 'settings', 'tos', 'privacy', 'messages',
  'notifications', 'widgets', 'widgets.js', 'compose', 'oauth', 'account', 'about', 'download', 'jobs', 'rules',
])
const INSTAGRAM_RESERVED = new Set(['p', 'reel', 'reels', 'explore', 'accounts', 'stories', 'direct', 'tv', 'about', 'developer', 'legal', 'web', 'embed.js'])
const YOUTUBE_PROFILE = /^\/(?:channel\/[\w-]+|c\/[^/]+|user\/[^/]+|@[^/]+)\/?/i

function hostIs(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`)
}

/**
 * Accounts of site builders, shops and theme vendors: templates link them by default (Dawn's Facebook/YouTube point
 * at Shopify, Wix's social bar at Wix) and theme credits link their authors. Never the business's own profile.
 */
const PLATFORM_ACCOUNTS = new Set([
  'wix', 'wixfr', 'shopify', 'shopifyfr', 'squarespace', 'jimdo', 'webflow', 'wordpress', 'wordpressdotcom', 'prestashop', 'elegantthemes',
  'wpastra', 'themegrill', 'themeisle', 'oceanwp', 'generatepress', 'elementor', 'envato', 'themeforest', 'woocommerce', 'godaddy',
])

function isPlatformAccount(url: URL): boolean {
  const segments = url.pathname.split('/').filter(Boolean).map((s) => s.toLowerCase().replace(/^@/, ''))
  const handle = ['company', 'c', 'user', 'pages'].includes(segments[0] ?? '') ? segments[1] : segments[0]
  return PLATFORM_ACCOUNTS.has(handle ?? '')
}

/** The network of a profile URL, or null (not social, or a share/intent/post/home link). */
export function classifySocialUrl(raw: string): SocialNetworkName | null {
  let url: URL
  try {
    url = new URL(raw.trim())
  } catch {
    return null
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null
  if (isPlatformAccount(url)) return null
  const host = url.hostname.toLowerCase()
  const segments = url.pathname.split('/').filter(Boolean)
  const first = (segments[0] ?? '').toLowerCase()

  if (hostIs(host, 'facebook.com') || hostIs(host, 'fb.com') || host === 'fb.me') {
    if (host.startsWith('developers.') || host.startsWith('business.')) return null
    if (!first) return null
    if (first === 'profile.php') return url.searchParams.get('id') ? 'facebook' : null
    if (first === 'people' || first === 'pages' || first === 'groups' || first === 'pg') return segments.length >= 2 ? 'facebook' : null
    return FACEBOOK_RESERVED.has(first) ? null : 'facebook'
  }
  if (hostIs(host, 'linkedin.com')) {
    if (['company', 'in', 'school', 'showcase'].includes(first) && segments.length >= 2) return 'linkedin'
    // Older forms still linked by sites made years ago: public profiles "/pub/jean-dupont/4a/231/9b7", the
    // "/company-beta/123456" and "/companies/…" pages, and "/profile/view?id=…".
    if (['pub', 'company-beta', 'companies'].includes(first) && segments.length >= 2) return 'linkedin'
    if (first === 'profile' && segments[1]?.toLowerCase() === 'view' && url.searchParams.get('id')) return 'linkedin'
    return null
  }
  if (hostIs(host, 'twitter.com') || hostIs(host, 'x.com')) {
    if (host.startsWith('platform.') || host.startsWith('api.') || host.startsWith('help.') || host.startsWith('developer.')) return null
    if (!first || TWITTER_RESERVED.has(first)) return null
    // A status link is a post, not the profile.
    if (segments[1]?.toLowerCase() === 'status') return null
    return /^[a-z0-9_]{1,15}$/i.test(first) ? 'twitter' : null
  }
  if (hostIs(host, 'instagram.com')) {
    if (!first || INSTAGRAM_RESERVED.has(first)) return null
    return /^[a-z0-9_.]{1,30}$/i.test(first) ? 'instagram' : null
  }
  if (hostIs(host, 'tiktok.com')) {
    return /^@[\w.]{1,30}$/.test(segments[0] ?? '') && segments.length === 1 ? 'tiktok' : null
  }
  if (hostIs(host, 'youtube.com')) {
    return YOUTUBE_PROFILE.test(url.pathname) ? 'youtube' : null
  }
  return null
}

/** Adds profile URLs to `into` (first one per network wins), as linked (fragment removed). */
export function addSocialLinks(into: Partial<Record<SocialNetworkName, string>>, urls: Iterable<string>) {
  for (const raw of urls) {
    const network = classifySocialUrl(raw)
    if (!network || into[network]) continue
    const url = raw.trim().replace(/#.*$/, '')
    into[network] = url
  }
}
