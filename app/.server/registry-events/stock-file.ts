/**
 * Opens a Sirene stock file as a stream of CSV bytes, whatever INSEE's packaging: the plain CSV, gzip (.csv.gz) or
 * the .zip data.gouv.fr publishes (one CSV inside; read through yauzl, which streams the entry and reads ZIP64, the
 * stock being past 4 GB). The kind is told by the first bytes, not the name. Parquet is refused (see
 * docs/registry-events.md, "Parquet").
 */
import fs from 'node:fs'
import type { Readable } from 'node:stream'
import zlib from 'node:zlib'
import yauzl from 'yauzl'

export type StockFileProblem = 'unreadable' | 'not_csv' | 'missing_columns' | 'parquet'

/** A file the loader cannot read; `problem` tells the command its exit code (parquet: 2, others: 1). */
export class StockFileError extends Error {
  constructor(
    readonly problem: StockFileProblem,
    message: string,
  ) {
    super(message)
    this.name = 'StockFileError'
  }
}

async function firstBytes(file: string): Promise<Buffer> {
  const handle = await fs.promises.open(file, 'r').catch((error: NodeJS.ErrnoException) => {
    throw new StockFileError('unreadable', `cannot open ${file}: ${error.code ?? error.message}`)
  })
  try {
    const buffer = Buffer.alloc(4)
    const { bytesRead } = await handle.read(buffer, 0, 4, 0)
    return buffer.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
}

/** The one CSV entry of a zip (the largest when there are several, the stock beside a notice). */
async function zipEntryStream(file: string): Promise<Readable> {
  const zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false }).catch((error: Error) => {
    throw new StockFileError('unreadable', `${file} is not a zip this loader can read: ${error.message}`)
  })
  let chosen: yauzl.Entry | undefined
  for await (const entry of zip.eachEntry()) {
    if (/\.csv$/i.test(entry.fileName) && (!chosen || entry.uncompressedSize > chosen.uncompressedSize)) chosen = entry
  }
  if (!chosen) {
    zip.close()
    throw new StockFileError('not_csv', `${file} holds no .csv file`)
  }
  const stream = await zip.openReadStreamPromise(chosen)
  stream.once('close', () => zip.close())
  return stream
}

/** The CSV bytes of `file` (plain, gzip or zip), streamed. */
export async function openStockFile(file: string): Promise<Readable> {
  const magic = await firstBytes(file)
  if (magic.toString('latin1') === 'PAR1') {
    throw new StockFileError('parquet', `${file} is Parquet: not supported. Load the CSV edition of the stock (StockEtablissement_utf8.zip), see docs/registry-events.md.`)
  }
  if (magic[0] === 0x50 && magic[1] === 0x4b && magic[2] === 0x03 && magic[3] === 0x04) return zipEntryStream(file)
  const raw = fs.createReadStream(file, { highWaterMark: 256 * 1024 })
  if (magic[0] === 0x1f && magic[1] === 0x8b) {
    const gunzip = zlib.createGunzip()
    raw.once('error', (error) => gunzip.destroy(error))
    return raw.pipe(gunzip)
  }
  return raw
}
