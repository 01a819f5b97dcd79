/**
 * One streaming pass over a page (htmlparser2, no DOM): visible text with block boundaries kept, links with their
 * text, script URLs, meta tags, JSON-LD blocks and Cloudflare-protected emails. Everything the extractors need.
 */
import { Parser } from 'htmlparser2'

interface PageLink {
  /** Absolute URL (fragment removed), or null when the href is not a usable http(s)/mailto/tel URL. */
  url: string | null
  /** The attribute as written (entities decoded). */
  href: string
  text: string
}

export interface ParsedPage {
  title: string
  /** Visible text: script/style/template content left out, a newline at every block boundary. */
  text: string
  links: PageLink[]
  /** Absolute script URLs, in document order, deduplicated. */
  scriptSrc: string[]
  /** Lower-case meta name/property → contents. */
  meta: Record<string, string[]>
  /** Parsed JSON-LD blocks (invalid ones skipped). */
  jsonLd: unknown[]
  /** Hex payloads of Cloudflare email protection (data-cfemail and /cdn-cgi/l/email-protection#… links). */
  cfEmails: string[]
  lang: string | null
}

const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'button', 'dd', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'footer',
  'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'option', 'p', 'pre', 'section', 'table',
  'td', 'th', 'tr', 'ul', 'label', 'body', 'html', 'head', 'title', 'img', 'input', 'select', 'textarea', 'iframe',
])
/** Elements whose content is not visible text. */
const HIDDEN = new Set(['script', 'style', 'template', 'svg', 'textarea', 'object', 'iframe'])
const MAX_TEXT = 400_000
const MAX_LINKS = 2_000
const MAX_JSON_LD = 200_000

function absolute(href: string, base: URL): string | null {
  const trimmed = href.trim()
  if (!trimmed || trimmed.startsWith('#') || /^javascript:/i.test(trimmed) || /^data:/i.test(trimmed)) return null
  try {
    const url = new URL(trimmed, base)
    if (url.protocol !== 'http:' && url.protocol !== 'https:' && url.protocol !== 'mailto:' && url.protocol !== 'tel:') return null
    url.hash = ''
    return url.href
  } catch {
    return null
  }
}

const CF_PATH = /\/cdn-cgi\/l\/email-protection#([0-9a-f]+)/i

export function parsePage(html: string, pageUrl: string): ParsedPage {
  let base = new URL(pageUrl)
  let baseSet = false
  const textParts: string[] = []
  let textLength = 0
  let title = ''
  let inTitle = false
  let hiddenDepth = 0
  const links: PageLink[] = []
  const scriptSrc: string[] = []
  const seenScripts = new Set<string>()
  const meta: Record<string, string[]> = {}
  const jsonLdTexts: string[] = []
  const cfEmails: string[] = []
  let lang: string | null = null
  // Open anchors (nested <a> is invalid but happens): text collects into the innermost.
  const anchors: Array<{ href: string; text: string[] }> = []
  let script: { jsonLd: boolean; parts: string[]; size: number } | null = null

  const pushText = (value: string) => {
    if (textLength >= MAX_TEXT) return
    textParts.push(value)
    textLength += value.length
  }

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (name === 'html' && attribs.lang) lang = attribs.lang.trim().toLowerCase() || null
        if (name === 'base' && attribs.href && !baseSet) {
          try {
            base = new URL(attribs.href, pageUrl)
            baseSet = true
          } catch {
            // ignore
          }
        }
        if (name === 'title' && hiddenDepth === 0 && !title) inTitle = true
        if (name === 'meta') {
          const key = (attribs.name ?? attribs.property ?? attribs.itemprop ?? '').trim().toLowerCase()
          if (key && attribs.content !== undefined) (meta[key] ??= []).push(attribs.content)
        }
        if (name === 'script') {
          const type = (attribs.type ?? '').trim().toLowerCase()
          script = { jsonLd: type === 'application/ld+json', parts: [], size: 0 }
          if (attribs.src) {
            const src = absolute(attribs.src, base)
            if (src && !seenScripts.has(src)) {
              seenScripts.add(src)
              scriptSrc.push(src)
            }
          }
        }
        if (attribs['data-cfemail']) cfEmails.push(attribs['data-cfemail'])
        if (name === 'a' || name === 'area') {
          const href = attribs.href ?? ''
          const cf = CF_PATH.exec(href)
          if (cf) cfEmails.push(cf[1] as string)
          if (name === 'a') anchors.push({ href, text: [] })
          else if (links.length < MAX_LINKS) links.push({ href, url: absolute(href, base), text: attribs.alt ?? '' })
        }
        if (HIDDEN.has(name)) hiddenDepth++
        else if (BLOCK.has(name)) pushText('\n')
        if (name === 'img' && attribs.alt && anchors.length > 0) anchors[anchors.length - 1]?.text.push(` ${attribs.alt} `)
      },
      ontext(data) {
        if (script) {
          if (script.jsonLd && script.size < MAX_JSON_LD) {
            script.parts.push(data)
            script.size += data.length
          }
          return
        }
        if (inTitle) {
          if (title.length < 500) title += data
          return
        }
        if (hiddenDepth > 0) return
        pushText(data)
        const anchor = anchors[anchors.length - 1]
        if (anchor && anchor.text.length < 50) anchor.text.push(data)
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false
        if (name === 'script' && script) {
          if (script.jsonLd) jsonLdTexts.push(script.parts.join(''))
          script = null
        }
        if (name === 'a') {
          const anchor = anchors.pop()
          if (anchor && links.length < MAX_LINKS) {
            links.push({ href: anchor.href, url: absolute(anchor.href, base), text: anchor.text.join('').replace(/\s+/g, ' ').trim() })
          }
        }
        if (HIDDEN.has(name)) hiddenDepth = Math.max(0, hiddenDepth - 1)
        else if (BLOCK.has(name)) pushText('\n')
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  )
  parser.write(html)
  parser.end()
  // Anchors never closed (truncated page) still count.
  for (const anchor of anchors) if (links.length < MAX_LINKS) links.push({ href: anchor.href, url: absolute(anchor.href, base), text: anchor.text.join('').trim() })

  const jsonLd: unknown[] = []
  for (const raw of jsonLdTexts) {
    try {
      jsonLd.push(JSON.parse(raw.trim().replace(/^<!--|-->$/g, '')))
    } catch {
      // Invalid JSON-LD is common; skip it.
    }
  }
  return {
    title: title.replace(/\s+/g, ' ').trim(),
    text: textParts.join('').replace(/[ \t\u00a0\u202f]+/g, ' ').replace(/ ?\n[\s]*/g, '\n'),
    links,
    scriptSrc,
    meta,
    jsonLd,
    cfEmails,
    lang,
  }
}

/** Every object of a JSON-LD value (arrays, @graph, nested values), depth-limited. */
function jsonLdNodes(value: unknown, depth = 0, out: Array<Record<string, unknown>> = []): Array<Record<string, unknown>> {
  if (depth > 8 || out.length > 500) return out
  if (Array.isArray(value)) {
    for (const item of value) jsonLdNodes(item, depth + 1, out)
  } else if (value && typeof value === 'object') {
    const node = value as Record<string, unknown>
    out.push(node)
    for (const child of Object.values(node)) if (child && typeof child === 'object') jsonLdNodes(child, depth + 1, out)
  }
  return out
}

/** String values of `key` over all JSON-LD nodes (a value may be a string or a list of strings). */
export function jsonLdStrings(blocks: unknown[], key: string): string[] {
  const out: string[] = []
  for (const node of jsonLdNodes(blocks)) {
    const value = node[key]
    for (const item of Array.isArray(value) ? value : [value]) if (typeof item === 'string') out.push(item)
  }
  return out
}
