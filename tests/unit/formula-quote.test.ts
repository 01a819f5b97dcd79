// The reversible formula quote of files we read back (the do-not-contact CSV): safe in a spreadsheet, exact on import.
import { expect, test } from 'vitest'
import { neutralizeFormula, neutralizeFormulaReversibly, restoreFormula } from '#app/.server/exports/download/formulas.ts'

const VALUES = ['=1+1@evil.fr', '+cmd@evil.fr', '-2+3@evil.fr', '@evil.fr', ' =x', "'=x@evil.fr", "''=x", "' =x", "'s-Hertogenbosch", "'", "''", 'plain@exemple.fr', '+33478123456', '-12.5', '', '\uFF1Dx']

test.each(VALUES)('%j: quoted when a spreadsheet would run it, and read back exactly', (value) => {
  const written = neutralizeFormulaReversibly(value)
  expect(restoreFormula(written)).toBe(value)
  // Never a cell a spreadsheet runs: the same as the export files' rule.
  expect(neutralizeFormula(written)).toBe(written)
  if (neutralizeFormula(value) !== value) expect(written).toBe(`'${value}`)
})

test('a value of its own with a leading quote keeps it, and hand-written quotes of formulas are removed', () => {
  expect(neutralizeFormulaReversibly("'s-Hertogenbosch")).toBe("'s-Hertogenbosch")
  expect(restoreFormula("'s-Hertogenbosch")).toBe("'s-Hertogenbosch")
  expect(restoreFormula("'=1+1@evil.fr")).toBe('=1+1@evil.fr')
})
