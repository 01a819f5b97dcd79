/**
 * The check an uploaded XLSX (a zip) passes before exceljs opens it. exceljs (through JSZip) inflates every part of
 * the file in memory, trusting the archive: a few kilobytes can declare — or, lying, hold — gigabytes of XML. So the
 * central directory is read here first (what each entry says it holds), and then every entry is inflated with its
 * declared size as a hard limit, so an entry that lies is caught at that limit, never past it.
 */
import { promisify } from 'node:util'
import zlib from 'node:zlib'

const inflateRaw = promisify(zlib.inflateRaw)

export interface ZipLimits {
  /** Sum of the entries' uncompressed sizes. */
  maxUncompressedBytes: number
  /** Uncompressed / compressed size of one entry, checked past `ratioFloorBytes` (small parts compress as they like). */
  maxRatio: number
  ratioFloorBytes: number
}

/** An XLSX of 50 000 rows of company data is ~15 MB of XML; deflate tops out near 1 000:1, sheet XML near 100:1. */
export const XLSX_LIMITS: ZipLimits = { maxUncompressedBytes: 50 * 1024 * 1024, maxRatio: 200, ratioFloorBytes: 1024 * 1024 }

export interface ZipEntry {
  name: string
  method: number
  compressedSize: number
  uncompressedSize: number
  localHeaderOffset: number
}

export type ZipCheck = { ok: true; entries: ZipEntry[] } | { ok: false; reason: 'unreadable' | 'bomb' | 'too_large'; uncompressedBytes?: number }

const EOCD_SIGNATURE = 0x06054b50
const CENTRAL_SIGNATURE = 0x02014b50
const LOCAL_SIGNATURE = 0x04034b50
const ZIP64_EXTRA = 0x0001
const MAX_32 = 0xffffffff

/** The end-of-central-directory record: in the last 22 bytes, or before a comment of up to 64 KB. */
function findEndOfCentralDirectory(zip: Buffer): number {
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--) {
    if (zip.readUInt32LE(at) === EOCD_SIGNATURE) return at
  }
  return -1
}

/** ZIP64 sizes: the extra field holds, in order, the 64-bit values of the fields set to 0xFFFFFFFF. */
function zip64Sizes(extra: Buffer, sizes: { uncompressedSize: number; compressedSize: number; localHeaderOffset: number }) {
  for (let at = 0; at + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(at)
    const size = extra.readUInt16LE(at + 2)
    if (id === ZIP64_EXTRA) {
      let field = at + 4
      for (const key of ['uncompressedSize', 'compressedSize', 'localHeaderOffset'] as const) {
        if (sizes[key] !== MAX_32 || field + 8 > at + 4 + size) continue
        sizes[key] = Number(extra.readBigUInt64LE(field))
        field += 8
      }
    }
    at += 4 + size
  }
  return sizes
}

/** Every entry the central directory lists; null when it is not a zip this reader understands. */
export function readCentralDirectory(zip: Buffer): ZipEntry[] | null {
  const end = findEndOfCentralDirectory(zip)
  if (end < 0) return null
  const count = zip.readUInt16LE(end + 10)
  const offset = zip.readUInt32LE(end + 16)
  // A ZIP64 archive (65 535 entries or more, or past 4 GB): never a spreadsheet within the upload limit.
  if (count === 0xffff || offset === MAX_32) return null
  const entries: ZipEntry[] = []
  for (let at = offset, i = 0; i < count; i++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== CENTRAL_SIGNATURE) return null
    const nameLength = zip.readUInt16LE(at + 28)
    const extraLength = zip.readUInt16LE(at + 30)
    const commentLength = zip.readUInt16LE(at + 32)
    const extra = zip.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength)
    const sizes = zip64Sizes(extra, { compressedSize: zip.readUInt32LE(at + 20), uncompressedSize: zip.readUInt32LE(at + 24), localHeaderOffset: zip.readUInt32LE(at + 42) })
    entries.push({ name: zip.toString('utf8', at + 46, at + 46 + nameLength), method: zip.readUInt16LE(at + 10), ...sizes })
    at += 46 + nameLength + extraLength + commentLength
  }
  return entries
}

/**
 * What the entries declare, against the limits, before anything is inflated. Past the total, a file that compresses
 * as spreadsheets do is only too big (a wide export); one that compresses as nothing real does is a bomb.
 */
function declaredOutcome(entries: readonly ZipEntry[], limits: ZipLimits): { outcome: 'ok' | 'bomb' | 'too_large'; total: number } {
  let total = 0
  let compressed = 0
  let bomb = false
  for (const entry of entries) {
    total += entry.uncompressedSize
    compressed += entry.compressedSize
    const ratio = entry.uncompressedSize / Math.max(entry.compressedSize, 1)
    if (entry.uncompressedSize > limits.ratioFloorBytes && ratio > limits.maxRatio) bomb = true
  }
  if (bomb) return { outcome: 'bomb', total }
  if (total <= limits.maxUncompressedBytes) return { outcome: 'ok', total }
  return { outcome: total / Math.max(compressed, 1) > limits.maxRatio ? 'bomb' : 'too_large', total }
}

/** The compressed bytes of an entry, after its local header (whose own lengths may differ from the central one's). */
function entryData(zip: Buffer, entry: ZipEntry): Buffer | null {
  const at = entry.localHeaderOffset
  if (at + 30 > zip.length || zip.readUInt32LE(at) !== LOCAL_SIGNATURE) return null
  const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28)
  return start + entry.compressedSize <= zip.length ? zip.subarray(start, start + entry.compressedSize) : null
}

/** Inflates one entry, stopped at its declared size: 'bomb' when it holds more than it says. */
async function inflatesAsDeclared(data: Buffer, entry: ZipEntry): Promise<'ok' | 'bomb' | 'unreadable'> {
  if (entry.method === 0) return data.length === entry.uncompressedSize ? 'ok' : 'unreadable'
  if (entry.method !== 8) return 'unreadable'
  try {
    const inflated = await inflateRaw(data, { maxOutputLength: Math.max(entry.uncompressedSize, 1) })
    return inflated.length <= entry.uncompressedSize ? 'ok' : 'bomb'
  } catch (error) {
    return (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? 'bomb' : 'unreadable'
  }
}

/**
 * Whether the zip may be handed to exceljs: its entries, or why not ('bomb': it would inflate past the limits, or
 * holds more than it declares; 'too_large': it declares more than the limit, compressed as real files are).
 */
export async function checkZip(zip: Buffer, limits: ZipLimits = XLSX_LIMITS): Promise<ZipCheck> {
  const entries = readCentralDirectory(zip)
  if (!entries) return { ok: false, reason: 'unreadable' }
  const declared = declaredOutcome(entries, limits)
  if (declared.outcome !== 'ok') return { ok: false, reason: declared.outcome, uncompressedBytes: declared.total }
  for (const entry of entries) {
    if (entry.name.endsWith('/') && entry.uncompressedSize === 0) continue
    const data = entryData(zip, entry)
    const outcome = data ? await inflatesAsDeclared(data, entry) : 'unreadable'
    if (outcome !== 'ok') return { ok: false, reason: outcome, uncompressedBytes: declared.total }
  }
  return { ok: true, entries }
}
