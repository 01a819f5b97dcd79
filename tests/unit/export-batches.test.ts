import { describe, expect, it } from 'vitest'
import { batchNumber, batchRange, batchSlots } from '#app/domain/export-batches.ts'

describe('export batches', () => {
  it('cuts positions into consecutive ranges of the batch size, numbered back from their range', () => {
    expect(batchRange(0, 50)).toEqual({ from: 0, to: 50 })
    expect(batchRange(3, 50)).toEqual({ from: 150, to: 200 })
    for (const n of [0, 1, 7, 39]) expect(batchNumber(batchRange(n, 50))).toBe(n)
    expect(batchNumber(batchRange(2, 1))).toBe(2)
  })

  it('keeps the leads in flight of one run per job slot: 2 × 128 leads → 6 batches of 50', () => {
    expect(batchSlots(2, 128, 50)).toBe(6)
    expect(batchSlots(2, 100, 50)).toBe(4)
    // A batch never holds fewer leads than its size allows: small concurrencies keep one batch per slot.
    expect(batchSlots(2, 2, 50)).toBe(2)
    expect(batchSlots(1, 8, 8)).toBe(1)
  })
})
