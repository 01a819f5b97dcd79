/**
 * Regex prefiltering: the literal text every match of a regex source must contain. technologies.ts indexes each
 * Wappalyzer pattern by it, so an input is matched only against the patterns whose literal it contains.
 */

const QUANTIFIER = /^(?:\?|\*|\+|\{(\d+)(?:,(\d*))?\})\??/

/**
 * The literal text any match of a regex source must contain, as alternatives (lower case): one of them is in every
 * match. Per top-level `|` branch, the longest required literal run, or else the alternatives of a required group
 * ("(?:a|b)"), recursively. null when some branch has no literal of 3+ characters (the pattern must always run).
 * Conservative: classes, escapes like \d, optional atoms and lookarounds end a run.
 */
export function requiredLiterals(source: string): string[] | null {
  const out: string[] = []
  for (const branch of splitTopLevel(source)) {
    const requirement = branchRequirement(branch)
    if (!requirement) return null
    out.push(...requirement)
  }
  return out
}

/** Index just past the class starting at `i` ("[...]"). */
function skipClass(source: string, i: number): number {
  for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++
  return i + 1
}

/** Index of the ")" closing the group opened at `i`. */
function groupEnd(source: string, i: number): number {
  let depth = 0
  for (; i < source.length; i++) {
    const c = source[i]
    if (c === '\\') i++
    else if (c === '[') i = skipClass(source, i) - 1
    else if (c === '(') depth++
    else if (c === ')' && --depth === 0) return i
  }
  return source.length
}

function splitTopLevel(source: string): string[] {
  const branches: string[] = []
  let depth = 0
  let start = 0
  for (let i = 0; i < source.length; i++) {
    const c = source[i]
    if (c === '\\') i++
    else if (c === '[') i = skipClass(source, i) - 1
    else if (c === '(') depth++
    else if (c === ')') depth--
    else if (c === '|' && depth === 0) {
      branches.push(source.slice(start, i))
      start = i + 1
    }
  }
  branches.push(source.slice(start))
  return branches
}

function branchRequirement(source: string): string[] | null {
  let best = ''
  let current = ''
  const groups: string[][] = []
  const flush = () => {
    if (current.length > best.length) best = current
    current = ''
  }
  let i = 0
  while (i < source.length) {
    const c = source[i] as string
    let literal: string | null = null
    let group: string | null = null
    if (c === '\\') {
      const next = source[i + 1] ?? ''
      literal = /[a-zA-Z0-9]/.test(next) ? null : next
      i += next === 'u' ? 6 : next === 'x' ? 4 : 2
    } else if (c === '[') {
      i = skipClass(source, i)
    } else if (c === '(') {
      const end = groupEnd(source, i)
      const inner = source.slice(i + 1, end)
      // Capturing, non-capturing and named groups must match; lookarounds and the rest are left alone.
      if (!inner.startsWith('?')) group = inner
      else if (inner.startsWith('?:')) group = inner.slice(2)
      else if (/^\?<[a-zA-Z_]/.test(inner)) group = inner.slice(inner.indexOf('>') + 1)
      i = end + 1
    } else if (c === '.' || c === '^' || c === '$' || c === ')' || c === '|') {
      i++
    } else {
      literal = c
      i++
    }
    const quantifier = QUANTIFIER.exec(source.slice(i, i + 20))
    if (quantifier) i += quantifier[0].length
    const min = !quantifier ? 1 : quantifier[0][0] === '?' || quantifier[0][0] === '*' ? 0 : quantifier[0][0] === '+' ? 1 : Number(quantifier[1])
    if (literal === null) {
      flush()
      if (group !== null && min > 0) {
        const inner = requiredLiterals(group)
        if (inner) groups.push(inner)
      }
      continue
    }
    if (min === 0) {
      flush()
      continue
    }
    current += literal
    if (quantifier) flush()
  }
  flush()
  if (best.length >= 3) return [best.toLowerCase()]
  // Else the required group whose shortest alternative is the longest (the most selective).
  let chosen: string[] | null = null
  for (const alternatives of groups) {
    const shortest = Math.min(...alternatives.map((a) => a.length))
    if (shortest >= 3 && (!chosen || shortest > Math.min(...chosen.map((a) => a.length)))) chosen = alternatives
  }
  return chosen
}
