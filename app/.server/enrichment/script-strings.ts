/**
 * Strings that inline JavaScript builds to show an address: `'contact' + '@' + 'domaine.fr'`, variables and arrays
 * of literals (`a[0] + '@' + a[1]`), `document.write(…)`, reversed strings (`'rf.eniamod@tcatnoc'.split('').reverse()
 * .join('')`), `String.fromCharCode(99, 111, …)`, `atob('…')`, mailto links built in `location.href`.
 *
 * A static evaluator of string expressions: the script is tokenised and only literals, `+`, indexing and a few
 * pure string functions are evaluated. Nothing is executed; anything else evaluates to unknown. Bounded in input
 * size, tokens, evaluation steps, nesting and string length.
 */

type Token = { t: 'str' | 'num' | 'id' | 'p'; v: string }
type Value = string | number | Value[] | null

const MAX_SOURCE = 20_000
const MAX_TOKENS = 8_000
const MAX_STEPS = 50_000
const MAX_DEPTH = 24
const MAX_STRING = 4_000
const MAX_RESULTS = 100
/** After these tokens a `/` starts a division, elsewhere a regex literal. */
const VALUE_END = new Set([')', ']', '}'])
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', 0: '\0' }

/** The string literal starting at `i` (a quote): its value (null for a template with `${}`) and the index after it. */
function readString(src: string, i: number): [string | null, number] {
  const quote = src[i]
  let out = ''
  let literal = true
  for (let j = i + 1; j < src.length; j++) {
    const c = src[j] as string
    if (c === quote) return [literal ? out : null, j + 1]
    if (c === '\n' && quote !== '`') return [null, j]
    if (quote === '`' && c === '$' && src[j + 1] === '{') literal = false
    if (c !== '\\') {
      out += c
      continue
    }
    const e = src[j + 1] ?? ''
    const hex = e === 'x' ? /^[0-9a-f]{2}/i.exec(src.slice(j + 2)) : e === 'u' ? /^[0-9a-f]{4}|^\{[0-9a-f]{1,6}\}/i.exec(src.slice(j + 2)) : null
    if (hex) {
      out += String.fromCodePoint(parseInt(hex[0].replace(/[{}]/g, ''), 16))
      j += 1 + hex[0].length
    } else {
      out += ESCAPES[e] ?? (e === '\n' ? '' : e)
      j++
    }
  }
  return [null, src.length]
}

/** Index after the regex literal starting at `i` (a `/`). */
function skipRegex(src: string, i: number): number {
  let inClass = false
  for (let j = i + 1; j < src.length; j++) {
    const c = src[j]
    if (c === '\\') j++
    else if (c === '\n') return j
    else if (c === '[') inClass = true
    else if (c === ']') inClass = false
    else if (c === '/' && !inClass) return j + 1
  }
  return src.length
}

function tokenize(src: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (i < src.length && tokens.length < MAX_TOKENS) {
    const c = src[i] as string
    const rest = src.slice(i, i + 2)
    if (/\s/.test(c)) i++
    else if (rest === '//') i = src.indexOf('\n', i) < 0 ? src.length : src.indexOf('\n', i)
    else if (rest === '/*') i = src.indexOf('*/', i + 2) < 0 ? src.length : src.indexOf('*/', i + 2) + 2
    else if (c === '"' || c === "'" || c === '`') {
      const [value, next] = readString(src, i)
      tokens.push(value === null ? { t: 'p', v: '?str' } : { t: 'str', v: value })
      i = next
    } else if (/[0-9]/.test(c)) {
      const num = /^(?:0x[0-9a-f]+|\d+(?:\.\d+)?)/i.exec(src.slice(i, i + 30))?.[0] ?? c
      tokens.push({ t: 'num', v: num })
      i += num.length
    } else if (/[A-Za-z_$]/.test(c)) {
      const id = /^[\w$]+/.exec(src.slice(i, i + 200))?.[0] ?? c
      tokens.push({ t: 'id', v: id })
      i += id.length
    } else if (c === '/') {
      const prev = tokens[tokens.length - 1]
      const division = prev && (prev.t === 'num' || prev.t === 'str' || (prev.t === 'id' && prev.v !== 'return' && prev.v !== 'typeof') || VALUE_END.has(prev.v))
      if (division) tokens.push({ t: 'p', v: '/' })
      i = division ? i + 1 : skipRegex(src, i)
    } else {
      const op = /^(?:===?|!==?|=>|\+=|[-*&|<>]=|\+\+|--|&&|\|\|)/.exec(src.slice(i, i + 3))?.[0] ?? c
      tokens.push({ t: 'p', v: op })
      i += op.length
    }
  }
  return tokens
}

const STRING_FUNCTIONS: Record<string, (arg: string) => string | null> = {
  atob: (arg) => (/^[A-Za-z0-9+/=\s]+$/.test(arg) ? Buffer.from(arg, 'base64').toString('utf8') : null),
  unescape: (arg) => safeDecode(arg),
  decodeURIComponent: (arg) => safeDecode(arg),
  decodeURI: (arg) => safeDecode(arg),
}

function safeDecode(arg: string): string | null {
  try {
    return decodeURIComponent(arg)
  } catch {
    return null
  }
}

function charCodes(values: Value[]): string | null {
  if (values.length > 400 || !values.every((v) => typeof v === 'number' && v >= 0 && v <= 0x10ffff)) return null
  return String.fromCodePoint(...(values as number[]).map(Math.floor))
}

/** A method call on a value: the few pure string/array methods that obfuscation uses. */
function callMethod(target: Value, name: string, args: Value[]): Value {
  const arg = args[0]
  if (typeof target === 'string') {
    if (name === 'split' && typeof arg === 'string') return target.split(arg).slice(0, MAX_STRING)
    if (name === 'toLowerCase' || name === 'toString' || name === 'trim') return name === 'toLowerCase' ? target.toLowerCase() : name === 'trim' ? target.trim() : target
    if (name === 'concat' && args.every((a) => typeof a === 'string' || typeof a === 'number')) return target + args.join('')
    if (name === 'replace' && typeof arg === 'string' && typeof args[1] === 'string') return target.replace(arg, () => args[1] as string)
    if (name === 'charAt' && typeof arg === 'number') return target.charAt(arg)
    return null
  }
  if (Array.isArray(target)) {
    if (name === 'reverse') return [...target].reverse()
    if (name === 'join' && (typeof arg === 'string' || arg === undefined)) return target.every((v) => typeof v === 'string' || typeof v === 'number') ? target.join(arg ?? ',') : null
    if (name === 'concat') return [...target, ...args.flatMap((a) => (Array.isArray(a) ? a : [a]))]
  }
  return null
}

function plus(a: Value, b: Value): Value {
  if (a === null || b === null || Array.isArray(a) || Array.isArray(b)) return null
  if (typeof a === 'number' && typeof b === 'number') return a + b
  const joined = `${a}${b}`
  return joined.length > MAX_STRING ? null : joined
}

interface Parsed {
  value: Value
  end: number
  /** Concatenations and transformations applied (a lone literal is 0). */
  ops: number
}

/** Evaluates string expressions over the tokens of one script. */
class Evaluator {
  private steps = 0
  readonly env = new Map<string, Value>()

  constructor(private readonly tokens: Token[]) {}

  private is(i: number, v: string): boolean {
    return this.tokens[i]?.v === v && this.tokens[i]?.t !== 'str'
  }

  /** Comma-separated expressions from `i` up to the closing `close`. */
  private list(i: number, close: string, depth: number): { values: Value[]; end: number; ops: number } | null {
    const values: Value[] = []
    let ops = 0
    if (this.is(i, close)) return { values, end: i + 1, ops }
    for (;;) {
      const item = this.expr(i, depth + 1)
      if (!item) return null
      values.push(item.value)
      ops += item.ops
      if (this.is(item.end, close)) return { values, end: item.end + 1, ops }
      if (!this.is(item.end, ',')) return null
      i = item.end + 1
    }
  }

  private primary(i: number, depth: number): Parsed | null {
    const token = this.tokens[i]
    if (!token) return null
    if (token.t === 'str') return { value: token.v, end: i + 1, ops: 0 }
    if (token.t === 'num') return { value: Number(token.v), end: i + 1, ops: 0 }
    if (token.v === '(') {
      const inner = this.expr(i + 1, depth + 1)
      return inner && this.is(inner.end, ')') ? { ...inner, end: inner.end + 1 } : null
    }
    if (token.v === '[') {
      const items = this.list(i + 1, ']', depth)
      return items && { value: items.values, end: items.end, ops: items.ops }
    }
    if (token.t !== 'id') return null
    if (token.v === 'String' && this.is(i + 1, '.') && this.tokens[i + 2]?.v === 'fromCharCode' && this.is(i + 3, '(')) {
      const args = this.list(i + 4, ')', depth)
      return args && { value: charCodes(args.values), end: args.end, ops: args.ops + 1 }
    }
    const fn = STRING_FUNCTIONS[token.v]
    if (fn && this.is(i + 1, '(')) {
      const args = this.list(i + 2, ')', depth)
      const arg = args?.values[0]
      return args && { value: typeof arg === 'string' ? fn(arg) : null, end: args.end, ops: args.ops + 1 }
    }
    return { value: this.env.get(token.v) ?? null, end: i + 1, ops: 0 }
  }

  /** A primary with its postfix operations: `[index]`, `.method(args)`. */
  private term(i: number, depth: number): Parsed | null {
    if (++this.steps > MAX_STEPS || depth > MAX_DEPTH) return null
    let current = this.primary(i, depth)
    while (current) {
      const { value, end, ops } = current
      if (this.is(end, '[')) {
        const index = this.expr(end + 1, depth + 1)
        if (!index || !this.is(index.end, ']')) return null
        const key = index.value
        const item = typeof key === 'number' && (Array.isArray(value) || typeof value === 'string') ? (value[key] ?? null) : null
        current = { value: item, end: index.end + 1, ops: ops + index.ops }
      } else if (this.is(end, '.') && this.tokens[end + 1]?.t === 'id' && this.is(end + 2, '(')) {
        const args = this.list(end + 3, ')', depth)
        if (!args) return null
        current = { value: callMethod(value, this.tokens[end + 1]?.v ?? '', args.values), end: args.end, ops: ops + args.ops + 1 }
      } else return current
    }
    return null
  }

  expr(i: number, depth = 0): Parsed | null {
    let left = this.term(i, depth)
    while (left && this.is(left.end, '+')) {
      const right = this.term(left.end + 1, depth)
      if (!right) return null
      left = { value: plus(left.value, right.value), end: right.end, ops: left.ops + right.ops + 1 }
    }
    return left
  }
}

/** Positions after which an expression starts whose string value is worth reading. */
const EXPRESSION_START = new Set(['=', '(', ',', ':', '?', 'return', '+='])

/** The strings an inline script builds (concatenated or transformed, or a "mailto:" literal). Never runs the script. */
export function scriptStrings(source: string): string[] {
  const tokens = tokenize(source.slice(0, MAX_SOURCE))
  const evaluator = new Evaluator(tokens)
  const out: string[] = []
  for (let i = 0; i < tokens.length && out.length < MAX_RESULTS; i++) {
    const token = tokens[i] as Token
    if (token.t === 'str' || !EXPRESSION_START.has(token.v)) continue
    const parsed = evaluator.expr(i + 1)
    if (!parsed || parsed.value === null) continue
    const target = tokens[i - 1]
    const variable = target?.t === 'id' && tokens[i - 2]?.v !== '.' ? target.v : null
    if (variable && token.v === '=') evaluator.env.set(variable, parsed.value)
    if (variable && token.v === '+=') evaluator.env.set(variable, plus(evaluator.env.get(variable) ?? null, parsed.value))
    const value = token.v === '+=' && variable ? evaluator.env.get(variable) : parsed.value
    if (typeof value === 'string' && (parsed.ops > 0 || token.v === '+=' || /^\s*mailto:/i.test(value))) out.push(value)
    i = parsed.end - 1
  }
  return out
}
