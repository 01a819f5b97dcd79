/**
 * The page-element rules of Wappalyzer fingerprints, evaluated without a browser: `dom` (CSS selectors, each with
 * `exists`, `text` or `attributes` patterns), `scripts` (inline script code) and `css` (inline style sheets). The page
 * is parsed once into an htmlparser2 DOM (domhandler) and selectors run with css-select.
 *
 * What a browser would add and a static page cannot give: `dom` `properties` (JavaScript expandos such as
 * `_reactRootContainer`, set by running scripts), the code of external scripts and the rules of external style sheets.
 *
 * A page is only queried with the selectors it could match: every selector is indexed by a literal its match needs
 * in the page's source (a quoted attribute value, a class, an id, an attribute name or `<tag`), the longest one.
 */
import { compile, selectAll } from 'css-select'
import { type AnyNode, type Document, DomHandler, type Element, isTag, isText } from 'domhandler'
import { Parser } from 'htmlparser2'
import { addLiterals, candidates, emptyIndex, type LiteralIndex } from './technology-index.ts'

/** A compiled pattern, as wappalyzer-core's parsePattern makes it. */
interface DomPattern {
  regex: RegExp
  confidence: number
  version: string
}

/** One selector's rules: exists / text / attributes (name → pattern) / properties (name → pattern). */
export interface DomRule {
  exists?: DomPattern
  text?: DomPattern
  attributes?: Record<string, DomPattern>
  properties?: Record<string, DomPattern>
}

export interface DomTechnology {
  name: string
  dom: Record<string, DomRule[]>
}

export interface DomSelector<T extends DomTechnology> {
  technology: T
  selector: string
}

/** What a static page offers the element rules. */
export interface PageDom {
  document: Document
  /** The source the DOM was built from (to find which selectors it could match). */
  source: string
  /** Inline script code, joined. */
  scripts: string
  /** Inline style sheets, joined. */
  css: string
}

/** Pages are parsed up to this size (the markers sit in the head and the first screens of the body). */
const MAX_DOM_SOURCE = 500_000
const MAX_INLINE = 200_000
const MAX_TEXT = 10_000
const MAX_NODES_PER_SELECTOR = 200

function inlineText(elements: Element[]): string {
  const parts: string[] = []
  let size = 0
  for (const element of elements) {
    for (const child of element.children) {
      if (!isText(child) || size >= MAX_INLINE) continue
      parts.push(child.data)
      size += child.data.length
    }
  }
  return parts.join('\n').slice(0, MAX_INLINE)
}

/** Parses a page once for the element rules. */
export function parsePageDom(html: string): PageDom {
  const source = html.length > MAX_DOM_SOURCE ? html.slice(0, MAX_DOM_SOURCE) : html
  const handler = new DomHandler()
  const parser = new Parser(handler, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true })
  parser.write(source)
  parser.end()
  const document = handler.root
  const scripts = selectAll<AnyNode, Element>(compiled('script:not([src])') as never, document).filter((s) => !/json|template|html/i.test(s.attribs.type ?? ''))
  return { document, source, scripts: inlineText(scripts), css: inlineText(selectAll<AnyNode, Element>(compiled('style') as never, document)) }
}

const queries = new Map<string, ReturnType<typeof compile<AnyNode, Element>> | null>()

/** A compiled selector (cached), or null when css-select cannot read it. */
function compiled(selector: string): ReturnType<typeof compile<AnyNode, Element>> | null {
  let query = queries.get(selector)
  if (query !== undefined) return query
  try {
    query = compile<AnyNode, Element>(selector)
  } catch {
    query = null
  }
  queries.set(selector, query)
  return query
}

/** Splits a selector list at its top-level commas. */
function selectorParts(selector: string): string[] {
  const parts: string[] = []
  let depth = 0
  let quote = ''
  let start = 0
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i]
    if (quote) {
      if (c === '\\') i++
      else if (c === quote) quote = ''
    } else if (c === '"' || c === "'") quote = c
    else if (c === '(' || c === '[') depth++
    else if (c === ')' || c === ']') depth--
    else if (c === ',' && depth === 0) {
      parts.push(selector.slice(start, i))
      start = i + 1
    }
  }
  parts.push(selector.slice(start))
  return parts
}

const ATTRIBUTE = /\[\s*((?:[\w-]|\\.)+)\s*(?:[~|^$*]?=\s*(?:"([^"]*)"|'([^']*)'|([^\]\s]*))\s*[is]?\s*)?\]/g
/** Usable in the source as written: no character an author may have entity-encoded, no line break. */
const USABLE = /^<?[^&<>"'\\\t\n\r]{3,}$/
const unescape = (text: string) => text.replace(/\\(.)/g, '$1').toLowerCase()

/**
 * The literal every match of one compound selector needs in the page source (lower case), or null. The most telling
 * kind first: an attribute value, then an id or class, then an attribute name, then `<tag`; the longest of a kind.
 */
function partLiteral(part: string): string | null {
  let rest = part
  for (let previous = ''; previous !== rest; ) [previous, rest] = [rest, rest.replace(/\([^()]*\)/g, '')]
  const kinds: string[][] = [[], [], [], []]
  rest = rest.replace(ATTRIBUTE, (_, name: string, double?: string, single?: string, bare?: string) => {
    kinds[0]?.push(double ?? single ?? bare ?? '')
    kinds[2]?.push(name)
    return ' '
  })
  for (const match of rest.matchAll(/[#.]((?:[\w-]|\\.)+)/g)) kinds[1]?.push(match[1] as string)
  for (const match of rest.matchAll(/(?:^|[\s>+~])([a-z][\w-]*)/gi)) kinds[3]?.push(`<${match[1] as string}`)
  for (const literals of kinds) {
    const usable = literals.map(unescape).filter((l) => USABLE.test(l))
    if (usable.length > 0) return usable.sort((a, b) => b.length - a.length)[0] as string
  }
  return null
}

/** Selector literals: a selector list is a candidate when any of its parts' literal is in the page. */
function selectorLiterals(selector: string): string[] | null {
  const literals: string[] = []
  for (const part of selectorParts(selector)) {
    const literal = partLiteral(part)
    if (!literal) return null
    literals.push(literal)
  }
  return literals
}

export function domIndex<T extends DomTechnology>(technologies: T[]): LiteralIndex<DomSelector<T>> {
  const index = emptyIndex<DomSelector<T>>()
  for (const technology of technologies) {
    for (const selector of Object.keys(technology.dom ?? {})) addLiterals(index, { technology, selector }, selectorLiterals(selector))
  }
  return index
}

function textContent(node: AnyNode, out: string[] = [], size = { n: 0 }): string[] {
  if (size.n >= MAX_TEXT) return out
  if (isText(node)) {
    out.push(node.data)
    size.n += node.data.length
  } else if ('children' in node) {
    for (const child of node.children) textContent(child, out, size)
  }
  return out
}

/** A detection in wappalyzer-core's shape. */
export interface DomDetection<T> {
  technology: T
  pattern: DomPattern & { type: string; value: string; match: string }
  version: string
}

type ResolveVersion = (pattern: DomPattern, value: string) => string

function matchPattern<T>(out: DomDetection<T>[], technology: T, type: string, pattern: DomPattern | undefined, values: string[], resolveVersion: ResolveVersion) {
  if (!pattern?.regex) return
  for (const value of values) {
    const match = pattern.regex.exec(value)
    if (match) out.push({ technology, pattern: { ...pattern, type, value, match: match[0] }, version: resolveVersion(pattern, value) })
  }
}

/** Evaluates one selector's rules on the elements it selects, as a browser driver of the format does. */
function evaluateRules<T extends DomTechnology>(out: DomDetection<T>[], { technology, selector }: DomSelector<T>, nodes: Element[], resolveVersion: ResolveVersion) {
  for (const rule of technology.dom[selector] ?? []) {
    // `exists`: a selected element is enough; `text`: its non-blank text content; `attributes`: the attribute's value.
    matchPattern(out, technology, 'dom', rule.exists, [''], resolveVersion)
    if (rule.text) matchPattern(out, technology, 'dom', rule.text, nodes.map((n) => textContent(n).join('').trim()).filter(Boolean), resolveVersion)
    for (const [name, pattern] of Object.entries(rule.attributes ?? {})) {
      matchPattern(out, technology, 'dom', pattern, nodes.flatMap((n) => (n.attribs[name] === undefined ? [] : [n.attribs[name]])), resolveVersion)
    }
  }
}

/** Detections from the `dom` rules of `index`'s technologies on one parsed page. */
export function domDetections<T extends DomTechnology>(index: LiteralIndex<DomSelector<T>>, page: PageDom, resolveVersion: ResolveVersion): DomDetection<T>[] {
  const out: DomDetection<T>[] = []
  for (const entry of candidates(index, [page.source])) {
    const query = compiled(entry.selector)
    if (!query) continue
    const nodes = selectAll<AnyNode, Element>(query as never, page.document).filter(isTag).slice(0, MAX_NODES_PER_SELECTOR)
    if (nodes.length > 0) evaluateRules(out, entry, nodes, resolveVersion)
  }
  return out
}
