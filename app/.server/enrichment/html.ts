/**
 * One streaming pass over a page (htmlparser2, no DOM): visible text with block boundaries kept, links with their
 * text, script URLs, meta tags, JSON-LD blocks and Cloudflare-protected emails. Everything the extractors need.
 */
import { Parser } from 'htmlparser2'
import { CreditSections } from './credit-sections.ts'
import { agencyPublisher, creditRanges, HOST_LINE, inRanges, mergeRanges, outsideRanges, type Range, withoutRanges } from './credits.ts'

interface PageLink {
  /** Absolute URL (fragment removed), or null when the href is not a usable http(s)/mailto/tel URL. */
  url: string | null
  /** The attribute as written (entities decoded). */
  href: string
  text: string
  /** Inside a credit block ("Site réalisé par …", "Website by …"): the agency's or host's link, not the business's. */
  credit: boolean
  /** Inside a publisher section naming a web agency (see fallbackText): the business's only when it has no other. */
  fallback: boolean
}

export interface ParsedPage {
  title: string
  /** Visible text: script/style/template content left out, a newline at every block boundary. */
  text: string
  /** `text` without its credit blocks (credits.ts): where the business's own emails and phones are read. */
  contactText: string
  /**
   * The legal notice's publisher section when it names a web agency or site builder ("Éditeur : Agence Web Pixel"), left
   * out of contactText: its emails, phones and SIREN are the business's only for a kind the site gives nowhere else.
   */
  fallbackText: string
  links: PageLink[]
  /** Absolute script URLs, in document order, deduplicated. */
  scriptSrc: string[]
  /** Lower-case meta name/property → contents. */
  meta: Record<string, string[]>
  /** Parsed JSON-LD blocks (invalid ones skipped). */
  jsonLd: unknown[]
  /** Hex payloads of Cloudflare email protection (data-cfemail and /cdn-cgi/l/email-protection#… links), credit blocks left out. */
  cfEmails: string[]
  /** Cloudflare-protected emails of fallbackText. */
  fallbackCfEmails: string[]
  /** Inline scripts (no src, JavaScript type), bounded: read by script-strings.ts for emails built in JavaScript. */
  inlineScripts: string[]
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
const MAX_TAIL_LINKS = 200
const MAX_JSON_LD = 200_000
const MAX_INLINE_SCRIPT = 20_000
const MAX_INLINE_SCRIPTS = 40
const JS_TYPE = /^(?:|text\/javascript|application\/javascript|module|text\/ecmascript)$/

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

/** Collects what parsePage returns while htmlparser2 streams the page's events to it. */
class PageCollector {
  base: URL
  private baseSet = false
  private readonly textParts: string[] = []
  private textLength = 0
  private title = ''
  private inTitle = false
  private hiddenDepth = 0
  private readonly links: PageLink[] = []
  private readonly scriptSrc: string[] = []
  private readonly seenScripts = new Set<string>()
  private readonly meta: Record<string, string[]> = {}
  private readonly jsonLdTexts: string[] = []
  private readonly cfEmails: Array<{ hex: string; at: number }> = []
  private lang: string | null = null
  // Open anchors (nested <a> is invalid but happens): text collects into the innermost.
  private readonly anchors: Array<{ href: string; text: string[]; start: number }> = []
  private readonly linkStarts: number[] = []
  private readonly tailLinks: Array<[PageLink, number]> = []
  private script: { jsonLd: boolean; inline: boolean; parts: string[]; size: number } | null = null
  private readonly inlineScripts: string[] = []
  // Under a credit heading ("<h2>Réalisation</h2>", "<dt>Hébergeur</dt>"), the whole section is the agency's or host's.
  private readonly credits = new CreditSections()

  constructor(private readonly pageUrl: string) {
    this.base = new URL(pageUrl)
  }

  private pushText(value: string) {
    if (this.textLength >= MAX_TEXT) return
    this.textParts.push(value)
    this.textLength += value.length
  }

  private pushLink(href: string, text: string, start = this.textLength) {
    const link = { href, url: absolute(href, this.base), text, credit: false, fallback: false }
    if (this.links.length < MAX_LINKS) {
      this.links.push(link)
      this.linkStarts.push(start)
      return
    }
    // Past the cap, the last links are kept: a long page's footer (legal notice, contact) comes at its end.
    this.tailLinks.push([link, start])
    if (this.tailLinks.length > MAX_TAIL_LINKS) this.tailLinks.shift()
  }

  private setBase(href: string) {
    if (this.baseSet) return
    try {
      this.base = new URL(href, this.pageUrl)
      this.baseSet = true
    } catch {
      // An unreadable <base> is ignored, as browsers do.
    }
  }

  private openScript(attribs: Record<string, string>) {
    const type = (attribs.type ?? '').trim().toLowerCase()
    const inline = !attribs.src && JS_TYPE.test(type) && this.inlineScripts.length < MAX_INLINE_SCRIPTS
    this.script = { jsonLd: type === 'application/ld+json', inline, parts: [], size: 0 }
    // A script a consent banner holds back (type="text/plain" data-src / data-cmplz-src) is still one the site loads.
    const declared = attribs.src || attribs['data-src'] || attribs['data-cmplz-src']
    const src = declared ? absolute(declared, this.base) : null
    if (src && !this.seenScripts.has(src)) {
      this.seenScripts.add(src)
      this.scriptSrc.push(src)
    }
  }

  private openLink(name: string, attribs: Record<string, string>) {
    const href = attribs.href ?? ''
    const cf = CF_PATH.exec(href)
    if (cf) this.cfEmails.push({ hex: cf[1] as string, at: this.textLength })
    if (name === 'a') this.anchors.push({ href, text: [], start: this.textLength })
    else this.pushLink(href, attribs.alt ?? '')
  }

  onopentag(name: string, attribs: Record<string, string>) {
    this.credits.open(name, this.textLength, BLOCK.has(name))
    if (name === 'html' && attribs.lang) this.lang = attribs.lang.trim().toLowerCase() || null
    if (name === 'base' && attribs.href) this.setBase(attribs.href)
    if (name === 'title' && this.hiddenDepth === 0 && !this.title) this.inTitle = true
    if (name === 'meta') {
      const key = (attribs.name ?? attribs.property ?? attribs.itemprop ?? '').trim().toLowerCase()
      if (key && attribs.content !== undefined) (this.meta[key] ??= []).push(attribs.content)
    }
    if (name === 'script') this.openScript(attribs)
    if (attribs['data-cfemail']) this.cfEmails.push({ hex: attribs['data-cfemail'], at: this.textLength })
    if (name === 'a' || name === 'area') this.openLink(name, attribs)
    if (HIDDEN.has(name)) this.hiddenDepth++
    else if (BLOCK.has(name)) this.pushText('\n')
    if (name === 'img' && attribs.alt && this.anchors.length > 0) this.anchors[this.anchors.length - 1]?.text.push(` ${attribs.alt} `)
  }

  ontext(data: string) {
    if (this.script) {
      if ((this.script.jsonLd && this.script.size < MAX_JSON_LD) || (this.script.inline && this.script.size < MAX_INLINE_SCRIPT)) {
        this.script.parts.push(data)
        this.script.size += data.length
      }
      return
    }
    if (this.inTitle) {
      if (this.title.length < 500) this.title += data
      return
    }
    if (this.hiddenDepth > 0) return
    this.credits.text(data, this.textLength)
    this.pushText(data)
    const anchor = this.anchors[this.anchors.length - 1]
    if (anchor && anchor.text.length < 50) anchor.text.push(data)
  }

  onclosetag(name: string) {
    this.credits.close(name, this.textLength, BLOCK.has(name))
    if (name === 'title') this.inTitle = false
    if (name === 'script' && this.script) {
      if (this.script.jsonLd) this.jsonLdTexts.push(this.script.parts.join(''))
      else if (this.script.inline && this.script.size > 0) this.inlineScripts.push(this.script.parts.join('').slice(0, MAX_INLINE_SCRIPT))
      this.script = null
    }
    if (name === 'a') {
      const anchor = this.anchors.pop()
      if (anchor) this.pushLink(anchor.href, anchor.text.join('').replace(/\s+/g, ' ').trim(), anchor.start)
    }
    if (HIDDEN.has(name)) this.hiddenDepth = Math.max(0, this.hiddenDepth - 1)
    else if (BLOCK.has(name)) this.pushText('\n')
  }

  result(): ParsedPage {
    // Anchors never closed (truncated page) still count.
    for (const anchor of this.anchors) this.pushLink(anchor.href, anchor.text.join('').trim(), anchor.start)
    for (const [link, start] of this.tailLinks.splice(0)) {
      this.links.push(link)
      this.linkStarts.push(start)
    }
    const jsonLd: unknown[] = []
    for (const raw of this.jsonLdTexts) {
      try {
        jsonLd.push(JSON.parse(raw.trim().replace(/^<!--|-->$/g, '')))
      } catch {
        // Invalid JSON-LD is common; skip it.
      }
    }
    const raw = this.textParts.join('')
    const { credits, agency } = this.sectionRanges(raw)
    const agencyOnly = (at: number) => !inRanges(credits, at) && inRanges(agency, at)
    this.links.forEach((link, i) => {
      link.credit = inRanges(credits, this.linkStarts[i] ?? -1)
      link.fallback = agencyOnly(this.linkStarts[i] ?? -1)
    })
    const cfEmails = this.cfEmails.filter(({ at }) => !inRanges(credits, at))
    return {
      title: this.title.replace(/\s+/g, ' ').trim(),
      text: normalizeText(raw),
      contactText: normalizeText(withoutRanges(raw, mergeRanges([...credits, ...agency]))),
      fallbackText: agency.length === 0 ? '' : normalizeText(withoutRanges(raw, mergeRanges([...credits, ...outsideRanges(agency, raw.length)]))),
      links: this.links,
      scriptSrc: this.scriptSrc,
      meta: this.meta,
      jsonLd,
      cfEmails: cfEmails.filter(({ at }) => !inRanges(agency, at)).map(({ hex }) => hex),
      fallbackCfEmails: cfEmails.filter(({ at }) => inRanges(agency, at)).map(({ hex }) => hex),
      inlineScripts: this.inlineScripts,
      lang: this.lang,
    }
  }

  /** Credit blocks (credits.ts lines and sections), and the publisher sections that name a web agency. */
  private sectionRanges(raw: string): { credits: Range[]; agency: Range[] } {
    const sections = this.credits.finish(this.textLength)
    const text = ({ range }: { range: Range }) => raw.slice(...range)
    const blocks = sections.filter((s) => s.role === 'credit' || (s.role === 'host' && HOST_LINE.test(text(s))))
    const agency = sections.filter((s) => s.role === 'publisher' && agencyPublisher(text(s)))
    return { credits: mergeRanges([...creditRanges(raw), ...blocks.map((s) => s.range)]), agency: mergeRanges(agency.map((s) => s.range)) }
  }
}

const normalizeText = (raw: string) => raw.replace(/[ \t\u00a0\u202f]+/g, ' ').replace(/ ?\n[\s]*/g, '\n')

/** A page parsed as its text arrives: the crawler reads pages larger than the HTML it keeps in memory to their end. */
export interface PageParser {
  write(text: string): void
  end(): ParsedPage
}

export function pageParser(pageUrl: string): PageParser {
  const collector = new PageCollector(pageUrl)
  const parser = new Parser(
    {
      onopentag: (name, attribs) => collector.onopentag(name, attribs),
      ontext: (data) => collector.ontext(data),
      onclosetag: (name) => collector.onclosetag(name),
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  )
  return {
    write: (text) => parser.write(text),
    end: () => {
      parser.end()
      return collector.result()
    },
  }
}

export function parsePage(html: string, pageUrl: string): ParsedPage {
  const parser = pageParser(pageUrl)
  parser.write(html)
  return parser.end()
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
