/**
 * HTML of the demo business websites. Each page carries the markers of its site model (site.ts): emails in the
 * site's markup style, social links, technology fingerprints, and the decoys a careful extractor must ignore.
 */
import type { DemoSite } from './site.ts'

export type DemoPage = 'home' | 'contact' | 'legal' | 'private'

function esc(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

/** Cloudflare's scheme: a random key byte, then every character XOR-ed with it, all as hex. */
export function cloudflareEncode(email: string, key: number): string {
  const hex = (n: number) => n.toString(16).padStart(2, '0')
  return hex(key) + [...email].map((ch) => hex(ch.charCodeAt(0) ^ key)).join('')
}

function obfuscate(email: string, style: 0 | 1 | 2): string {
  const [local, domain] = email.split('@') as [string, string]
  if (style === 0) return `${local} [at] ${domain.split('.').join(' [dot] ')}`
  if (style === 1) return `${local} (at) ${domain}`
  return `${local} [at] ${domain}`
}

/** The primary email as this site writes it. */
function emailMarkup(site: DemoSite, email: string): string {
  switch (site.emailMarkup) {
    case 'mailto':
      return `<a href="mailto:${esc(email)}">${esc(email)}</a>`
    case 'mailto-encoded':
      return `<a href="mailto:${email.replace('@', '%40')}?subject=Demande%20d%27information">Écrivez-nous</a>`
    case 'obfuscated':
      return `<span class="email">${esc(obfuscate(email, site.obfuscationStyle))}</span>`
    case 'cloudflare': {
      const encoded = cloudflareEncode(email, (site.seed % 200) + 20)
      return `<a href="/cdn-cgi/l/email-protection#${encoded}"><span class="__cf_email__" data-cfemail="${encoded}">[email&#160;protected]</span></a>`
    }
    case 'json-ld':
      return '<span>Écrivez-nous via notre <a href="contact">formulaire de contact</a>.</span>'
    case 'none':
      return ''
  }
}

function telHref(phone: string): string {
  const digits = phone.replace(/\D/g, '')
  return /^0[1-9]\d{8}$/.test(digits) && !/^0(26|59)/.test(digits) ? `+33${digits.slice(1)}` : digits
}

function jsonLd(site: DemoSite, siteUrl: string): string {
  const data: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'LocalBusiness',
    name: site.name,
    url: siteUrl,
  }
  if (site.phone) data.telephone = site.phone
  if (site.emailMarkup === 'json-ld' && site.emails[0]) data.email = site.emails[0]
  if (site.streetAddress) {
    data.address = { '@type': 'PostalAddress', streetAddress: site.streetAddress, postalCode: site.postalCode, addressLocality: site.city, addressCountry: 'FR' }
  }
  if (site.socialMarkup === 'json-ld') data.sameAs = Object.values(site.socialMedia)
  // "<" escaped so the JSON can never close the script element.
  return `<script type="application/ld+json">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>`
}

function headMarkers(site: DemoSite, base: string): string {
  const { stack, versions } = site
  const out: string[] = []
  if (stack === 'wordpress') {
    out.push(`<meta name="generator" content="WordPress ${versions.platform}">`)
    out.push(`<link rel="stylesheet" id="astra-theme-css" href="${base}wp-content/themes/astra/style.min.css?ver=${versions.platform}" media="all">`)
  } else if (stack === 'bootstrap') {
    out.push(`<link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/bootstrap@${versions.platform}/dist/css/bootstrap.min.css">`)
  } else if (stack === 'wix') {
    out.push('<meta name="generator" content="Wix.com Website Builder">')
  } else if (stack === 'shopify') {
    out.push(`<link rel="stylesheet" href="https://cdn.shopify.com/s/files/1/0${site.headers['X-ShopId']?.slice(0, 3)}/${site.seed % 10000}/t/3/assets/base.css">`)
  } else if (stack === 'joomla') {
    out.push('<meta name="generator" content="Joomla! - Open Source Content Management">')
  } else if (stack === 'prestashop') {
    out.push('<meta name="generator" content="PrestaShop">')
  }
  if (site.analyticsId) {
    out.push(`<script async src="https://www.googletagmanager.com/gtag/js?id=${site.analyticsId}"></script>`)
    out.push(`<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag('js',new Date());gtag('config','${site.analyticsId}');</script>`)
  }
  return out.join('\n')
}

function bodyScripts(site: DemoSite, base: string): string {
  const { stack, versions } = site
  const out: string[] = []
  if (versions.jquery) {
    out.push(stack === 'wordpress'
      ? `<script src="${base}wp-includes/js/jquery/jquery-${versions.jquery}.min.js"></script>`
      : `<script src="https://code.jquery.com/jquery-${versions.jquery}.min.js"></script>`)
  }
  if (stack === 'bootstrap') out.push(`<script src="https://cdn.jsdelivr.net/npm/bootstrap@${versions.platform}/dist/js/bootstrap.bundle.min.js"></script>`)
  if (stack === 'wix') out.push('<script src="https://static.parastorage.com/services/wix-thunderbolt/dist/main.bundle.min.js"></script>')
  if (stack === 'shopify') out.push(`<script src="https://cdn.shopify.com/s/files/1/0${site.headers['X-ShopId']?.slice(0, 3)}/${site.seed % 10000}/t/3/assets/theme.js" defer></script>`)
  if (stack === 'joomla') out.push(`<script src="${base}media/system/js/core.min.js"></script>`)
  if (stack === 'prestashop') out.push(`<script>var prestashop = {"shop":{"name":${JSON.stringify(site.name).replace(/</g, '\\u003c')}}};</script>`)
  if (site.emailMarkup === 'cloudflare') out.push('<script data-cfasync="false" src="/cdn-cgi/scripts/5c5dd728/cloudflare-static/email-decode.min.js"></script>')
  const sentry = site.decoys.emails.find((e) => e.endsWith('.ingest.sentry.io'))
  if (sentry) out.push(`<script>window.SENTRY_DSN = "https://${sentry}/4505";</script>`)
  return out.join('\n')
}

function socialLinks(site: DemoSite): string {
  const labels: Record<string, string> = { facebook: 'Facebook', instagram: 'Instagram', linkedin: 'LinkedIn', twitter: 'X (Twitter)', tiktok: 'TikTok' }
  const links = site.socialMarkup === 'links'
    ? Object.entries(site.socialMedia).map(([network, url]) => `<a href="${esc(url)}" rel="noopener" target="_blank">${labels[network]}</a>`)
    : []
  const shares = site.decoys.socialLinks.map((url) => `<a href="${esc(url)}" class="share">Partager</a>`)
  return [...links, ...shares].join(' · ')
}

function addressBlock(site: DemoSite): string {
  if (!site.streetAddress) return ''
  return `<address>${esc(site.streetAddress)}<br>${esc(`${site.postalCode} ${site.city}`)}</address>`
}

function telLink(phone: string): string {
  return `<a href="tel:${telHref(phone)}">${esc(phone)}</a>`
}

function phoneLink(site: DemoSite): string {
  return site.phone ? telLink(site.phone) : ''
}

function layout(site: DemoSite, base: string, title: string, main: string, page: DemoPage, origin: string): string {
  const logo = site.decoys.emails.includes('logo@2x.png') ? `<img src="${base}images/logo@2x.png" alt="${esc(site.name)}" width="120">` : ''
  const privateLink = site.robotsDisallowPrivate && page === 'home' ? ` <a href="${base}private/contact">Contact professionnels</a>` : ''
  return `<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
${headMarkers(site, base)}
${page === 'home' ? jsonLd(site, origin + base) : ''}
</head>
<body>
<header>${logo}<a href="${base}" class="brand">${esc(site.name)}</a>
<nav><a href="${base}">Accueil</a> <a href="${base}contact">Contact</a> <a href="${base}mentions-legales">Mentions légales</a>${privateLink}</nav>
</header>
<main>
${main}
</main>
<footer>
<p>${esc(site.name)}${site.city ? ` · ${esc(site.city)}` : ''}${site.phone ? ` · ${phoneLink(site)}` : ''}</p>
<p class="social">${socialLinks(site)}</p>
<p>© 2024 ${esc(site.name)} · <a href="${base}mentions-legales">Mentions légales</a></p>
</footer>
${bodyScripts(site, base)}
</body>
</html>
`
}

/** `base` is the site's path ("/sites/<slug>/"), `origin` the server's (for absolute URLs in JSON-LD). */
export function renderDemoPage(site: DemoSite, page: DemoPage, base: string, origin = ''): string {
  const primary = site.emails[0]
  const primaryLine = primary && site.emailMarkup !== 'none' ? `<p>Email : ${emailMarkup(site, primary)}</p>` : ''
  switch (page) {
    case 'home':
      return layout(site, base, site.name, `<h1>${esc(site.name)}</h1>
<p>Bienvenue chez ${esc(site.name)}${site.city ? `, à ${esc(site.city)}` : ''} depuis ${site.foundedYear}. Une équipe passionnée à votre service, avec le sens du détail et de l'accueil.</p>
<section><h2>Nous trouver</h2>${addressBlock(site)}${site.phone ? `<p>Téléphone : ${phoneLink(site)}</p>` : ''}${primaryLine}</section>`, page, origin)
    case 'contact': {
      const secondary = site.emails.slice(1).map((e) => `<p>Service dédié : <a href="mailto:${esc(e)}">${esc(e)}</a></p>`).join('')
      return layout(site, base, `Contact – ${site.name}`, `<h1>Contactez-nous</h1>
${addressBlock(site)}${site.phone ? `<p>Téléphone : ${phoneLink(site)}</p>` : ''}${site.mobile ? `<p>Portable : ${telLink(site.mobile)}</p>` : ''}${primaryLine}${secondary}
<form method="post" action="${base}contact"><label>Votre email <input type="email" name="email" placeholder="votre@email.fr"></label>
<label>Message <textarea name="message"></textarea></label><button type="submit">Envoyer</button></form>`, page, origin)
    }
    case 'legal': {
      const host = site.stack === 'wix' ? 'Wix.com Ltd., 40 Namal Tel Aviv St., Tel Aviv, Israël'
        : site.stack === 'shopify' ? 'Shopify Inc., 151 O’Connor Street, Ottawa, Canada'
        : 'OVH SAS, 2 rue Kellermann, 59100 Roubaix, France'
      const siret = site.siret
        ? `<p>SIRET : ${site.siret.replace(/^(\d{3})(\d{3})(\d{3})(\d{5})$/, '$1 $2 $3 $4')}</p><p>RCS ${esc(site.city ?? 'Paris')} B ${site.siret.slice(0, 9).replace(/^(\d{3})(\d{3})(\d{3})$/, '$1 $2 $3')}</p>`
        : ''
      return layout(site, base, `Mentions légales – ${site.name}`, `<h1>Mentions légales</h1>
<p>Éditeur du site : ${esc(site.legalName)}</p>${addressBlock(site)}${siret}
<p>Directeur de la publication : ${esc(site.publisher)}</p>${primaryLine}
<p>Hébergeur : ${esc(host)}</p>`, page, origin)
    }
    case 'private':
      return layout(site, base, `Espace professionnels – ${site.name}`, `<h1>Espace professionnels</h1>
<p>Contact réservé aux fournisseurs : <a href="mailto:${esc(site.privateEmail ?? '')}">${esc(site.privateEmail ?? '')}</a></p>`, page, origin)
  }
}

export function renderNotFound(): string {
  return '<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>Page introuvable</title></head><body><h1>404 – Page introuvable</h1></body></html>\n'
}
