import { expect, test } from 'vitest'
import { isUuid } from '#app/domain/ids.ts'

test('isUuid accepts canonical UUIDs in either case and nothing else', () => {
  expect(isUuid('0d9b47b1-06c1-4cd0-87ab-038282f4a693')).toBe(true)
  expect(isUuid('0D9B47B1-06C1-4CD0-87AB-038282F4A693')).toBe(true)
  for (const value of ['', 'not-a-uuid', '0d9b47b1-06c1-4cd0-87ab-038282f4a69', '0d9b47b1-06c1-4cd0-87ab-038282f4a693 ', "0d9b47b1-06c1-4cd0-87ab-038282f4a693' or 1=1", '0d9b47b106c14cd087ab038282f4a693', null, undefined, 42, {}]) {
    expect(isUuid(value)).toBe(false)
  }
})
