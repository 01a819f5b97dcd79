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
import { compile, is } from 'css-select'
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
  /** Elements in document order, all and by tag / attribute name: a selector tests only those it could select. */
  elements: Element[]
  byTag: Map<string, Element[]>
  byAttribute: Map<string, Element[]>
}

/** Pages are parsed up to this size (the markers sit in the head and the first screens of the body). */
const MAX_DOM_SOURCE = 300_000
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
function push(map: Map<string, Element[]>, key: string, element: Element) {
  const list = map.get(key)
  if (list) list.push(element)
  else map.set(key, [element])
}

/** Parses a page once for the element rules. */
export function parsePageDom(html: string): PageDom {
  const source = html.length > MAX_DOM_SOURCE ? html.slice(0, MAX_DOM_SOURCE) : html
  const handler = new DomHandler()
  const parser = new Parser(handler, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true })
  parser.write(source)
  parser.end()
  const page: PageDom = { document: handler.root, source, scripts: '', css: '', elements: [], byTag: new Map(), byAttribute: new Map() }
  const stack: AnyNode[] = [...handler.root.children].reverse()
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (!isTag(node)) continue
    page.elements.push(node)
    push(page.byTag, node.name, node)
    for (const name of Object.keys(node.attribs)) push(page.byAttribute, name, node)
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as AnyNode)
  }
  const inline = (page.byTag.get('script') ?? []).filter((s) => s.attribs.src === undefined && !/json|template|html/i.test(s.attribs.type ?? ''))
  page.scripts = inlineText(inline)
  page.css = inlineText(page.byTag.get('style') ?? [])
  return page
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

/**
 * Attribute names a selector's rules read, when reading attributes is all they do (an absent attribute matches
 * nothing, so one of the names must be in the source); null otherwise.
 */
function attributeLiterals(rules: DomRule[]): string[] | null {
  if (rules.some((rule) => rule.exists || rule.text)) return null
  const names = rules.flatMap((rule) => Object.keys(rule.attributes ?? {})).map(unescape)
  return names.length > 0 && names.every((name) => USABLE.test(name)) ? names : null
}

/** Selectors indexed by literal; those whose only rules are `properties` (not evaluable) are left out. */
export function domIndex<T extends DomTechnology>(technologies: T[]): LiteralIndex<DomSelector<T>> {
  const index = emptyIndex<DomSelector<T>>()
  for (const technology of technologies) {
    for (const [selector, rules] of Object.entries(technology.dom ?? {})) {
      if (!rules.some((rule) => rule.exists || rule.text || rule.attributes)) continue
      addLiterals(index, { technology, selector }, selectorLiterals(selector) ?? attributeLiterals(rules))
    }
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
/**
 * Where the elements a selector can select are: per comma part, the tag or else an attribute name (`[attr]`, `#id`,
 * `.class`) of its rightmost compound; null when some part could select any element (`*`, `:root`…).
 */
function selectorTargets(selector: string): Array<['tag' | 'attribute', string]> | null {
  const targets: Array<['tag' | 'attribute', string]> = []
  for (const part of selectorParts(selector)) {
    let rest = part
    for (let previous = ''; previous !== rest; ) [previous, rest] = [rest, rest.replace(/\([^()]*\)/g, '')]
    rest = rest.replace(ATTRIBUTE, (_, name: string) => `[${unescape(name)}]`)
    const last = rest.trim().split(/\s*[>+~]\s*|\s+/).pop() ?? ''
    if (last.includes('|')) return null
    const tag = /^[a-z][\w-]*/i.exec(last)?.[0]
    const attribute = /\[([^\]]+)\]/.exec(last)?.[1] ?? (last.includes('#') ? 'id' : last.includes('.') ? 'class' : undefined)
    if (tag) targets.push(['tag', tag.toLowerCase()])
    else if (attribute) targets.push(['attribute', attribute])
    else return null
  }
  return targets
}

const targetCache = new Map<string, ReturnType<typeof selectorTargets>>()

/** The elements `selector` selects (up to a bound), testing only those it could select. */
function select(page: PageDom, selector: string): Element[] {
  const query = compiled(selector)
  if (!query) return []
  let targets = targetCache.get(selector)
  if (targets === undefined) targetCache.set(selector, (targets = selectorTargets(selector)))
  const pools = targets === null ? [page.elements] : targets.map(([kind, key]) => (kind === 'tag' ? page.byTag : page.byAttribute).get(key) ?? [])
  const pool = pools.length === 1 ? (pools[0] as Element[]) : [...new Set(pools.flat())]
  const out: Element[] = []
  for (const element of pool) {
    if (!is<AnyNode, Element>(element, query as never)) continue
    out.push(element)
    if (out.length >= MAX_NODES_PER_SELECTOR) break
  }
  return out
}

/** Detections from the `dom` rules of `index`'s technologies on one parsed page. */
export function domDetections<T extends DomTechnology>(index: LiteralIndex<DomSelector<T>>, page: PageDom, resolveVersion: ResolveVersion): DomDetection<T>[] {
  const out: DomDetection<T>[] = []
  for (const entry of candidates(index, [page.source])) {
    const nodes = select(page, entry.selector)
    if (nodes.length > 0) evaluateRules(out, entry, nodes, resolveVersion)
  }
  return out
}
