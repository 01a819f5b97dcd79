import { isAuthWeakPasswordError } from '@supabase/supabase-js'
import { ZxcvbnFactory } from '@zxcvbn-ts/core'
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common'

/**
 * Refuses the passwords an attacker tries first: leaked-password lists (zxcvbn's common
 * dictionary), repeats, sequences and keyboard walks — whatever zxcvbn guesses in under a
 * thousand tries (score 0). Stricter scores would refuse long passphrases people do remember.
 * Server only: the dictionaries weigh a few hundred KB, the browser gets just the length rule.
 */
const zxcvbn = new ZxcvbnFactory({
  dictionary,
  graphs: adjacencyGraphs,
  // zxcvbn's work grows fast with length and l33t variants: crafted 200-character passwords took
  // over 300 ms each, on the event loop, before any rate limit. The common lists' longest entry is
  // 20 characters, so the first 32 decide, with a few substitutions (p@ssw0rd is still caught).
  maxLength: 32,
  l33tMaxSubstitutions: 4,
})

/** Score below which a password counts as common (zxcvbn: 0 is "too guessable", < 10³ guesses). */
const MIN_SCORE = 1

export function isCommonPassword(password: string): boolean {
  return zxcvbn.check(password).score < MIN_SCORE
}

/** The auth server refused a password as a known one (GoTrue's `weak_password` with the `pwned` reason). */
export function refusedAsCommon(error: unknown): boolean {
  return isAuthWeakPasswordError(error) && error.reasons.includes('pwned')
}
