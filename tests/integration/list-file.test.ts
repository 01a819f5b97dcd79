// "Enrich your own list": uploaded files read whole or refused whole (app/.server/lists/parse-file.ts), on real bytes
// written here as the tools users bring write them: Excel's CSVs (UTF-8 with a BOM, Windows-1252), tab-separated
// text, RFC 4180 quoting, an XLSX from exceljs, and the files that must be refused (binary, 50 001 rows, zip bombs).
import zlib from 'node:zlib'
import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { readListRows } from '#app/.server/lists/list-rows.ts'
import { isListFileRefusal, type ListFileRefusal, type ParsedList, parseListFile } from '#app/.server/lists/parse-file.ts'
import { readCentralDirectory } from '#app/.server/lists/zip-guard.ts'
import { guessColumnKinds, LIST_FILE_REFUSALS, type ListFileRefusalCode } from '#app/domain/list-columns.ts'

const utf8 = (text: string) => new TextEncoder().encode(text)
/** Windows-1252 for the Latin-1 range the tests use (é = 0xE9): one byte per character. */
const windows1252 = (text: string) => Uint8Array.from([...text].map((char) => char.charCodeAt(0)))

async function parsed(bytes: Uint8Array, filename = 'list.csv'): Promise<ParsedList> {
  const result = await parseListFile(bytes, filename)
  if (isListFileRefusal(result)) throw new Error(`refused: ${result.refused}`)
  return result
}

/** The refusal codes the files below got: every one the UI localizes must come from some file. */
const refusalsSeen = new Set<ListFileRefusalCode>()

async function refusal(bytes: Uint8Array, filename = 'list.csv', options?: Parameters<typeof parseListFile>[2]): Promise<ListFileRefusal> {
  const result = await parseListFile(bytes, filename, options)
  if (!isListFileRefusal(result)) throw new Error('not refused')
  refusalsSeen.add(result.refused)
  return result
}

describe('parseListFile: CSV', () => {
  it('reads a French Excel "CSV UTF-8" (BOM, ";", CRLF)', async () => {
    const text = '\uFEFFRaison sociale;SIRET;Code postal;Ville\r\nBoulangerie Lefèvre;55210055400013;29200;Brest\r\nCrêperie Ty Ar Mor;73282932000017;29000;Quimper\r\n'
    const list = await parsed(utf8(text))
    expect(list).toEqual({
      headers: ['Raison sociale', 'SIRET', 'Code postal', 'Ville'],
      rows: [
        ['Boulangerie Lefèvre', '55210055400013', '29200', 'Brest'],
        ['Crêperie Ty Ar Mor', '73282932000017', '29000', 'Quimper'],
      ],
      lines: [2, 3],
      format: 'csv',
      delimiter: ';',
      encoding: 'utf-8',
      duplicates: 0,
      emptyColumns: [],
    })
    expect(guessColumnKinds(list.headers, list.rows)).toEqual(['name', 'siret', 'postal_code', 'city'])
  })

  it('reads Windows-1252 with "," (a French Excel\'s plain "CSV")', async () => {
    const list = await parsed(windows1252('Société,Site web,Ville\r\nPâtisserie Hélène,www.helene.fr,Besançon\r\n'))
    expect(list).toMatchObject({ encoding: 'windows-1252', delimiter: ',', headers: ['Société', 'Site web', 'Ville'], rows: [['Pâtisserie Hélène', 'www.helene.fr', 'Besançon']] })
  })

  it('reads tab-separated text', async () => {
    const list = await parsed(utf8('Company\tWebsite\tZip\tCity\nAcme\tacme.com\t75011\tParis\n'))
    expect(list).toMatchObject({ delimiter: '\t', rows: [['Acme', 'acme.com', '75011', 'Paris']] })
  })

  it('keeps quoted delimiters, quotes and line breaks inside their field; lines count the file\'s own', async () => {
    const text = 'Nom,Adresse,Ville\n"Martin, Fils & Cie","12 rue de Siam\nBâtiment B","Brest"\n"Le ""Fournil""",3 place Hoche,Rennes\n'
    const list = await parsed(utf8(text))
    expect(list.rows).toEqual([
      ['Martin, Fils & Cie', '12 rue de Siam\nBâtiment B', 'Brest'],
      ['Le "Fournil"', '3 place Hoche', 'Rennes'],
    ])
    expect(list.lines).toEqual([2, 4])
  })

  it('skips blank lines, fits rows to the header, removes exact repeats and reports empty columns', async () => {
    const text = 'Nom;Fax;Ville;;\n\nMartin;;Brest;;\n;;;\nMartin;;Brest\nDurand;;Rennes;extra;more\n  \nMartin;;Brest;;\n'
    const list = await parsed(utf8(text))
    expect(list.headers).toEqual(['Nom', 'Fax', 'Ville'])
    expect(list.rows).toEqual([
      ['Martin', '', 'Brest'],
      ['Durand', '', 'Rennes'],
    ])
    expect(list.lines).toEqual([3, 6])
    expect(list.duplicates).toBe(2)
    expect(list.emptyColumns).toEqual([1])
  })

  it('reads the file by its content, whatever its name', async () => {
    expect(await parsed(utf8('Nom;Ville\nMartin;Brest\n'), 'liste.xlsx')).toMatchObject({ format: 'csv' })
  })
})

describe('parseListFile: refusals', () => {
  it('refuses a binary file, saying what it is when it can', async () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, ...new Array(64).fill(7)])
    expect(await refusal(png, 'logo.csv')).toEqual({ refused: 'binary', detail: { format: 'image' } })
    const xls = Uint8Array.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 3, 0, 0xfe, 0xff])
    expect(await refusal(xls, 'export.xls')).toEqual({ refused: 'binary', detail: { format: 'xls' } })
    expect(await refusal(Uint8Array.from([1, 2, 3, 0, 0, 9]), 'x.csv')).toEqual({ refused: 'binary' })
  })

  it('refuses UTF-16 text and a UTF-8 BOM before bytes that are not UTF-8', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Nom\tVille\r\nMartin\tBrest\r\n', 'utf16le')])
    expect(await refusal(utf16)).toEqual({ refused: 'unsupported_encoding', detail: { encoding: 'utf-16' } })
    expect(await refusal(Buffer.from('Nom\tVille\r\nMartin\tBrest\r\n', 'utf16le'))).toMatchObject({ refused: 'unsupported_encoding' })
    const mixed = Uint8Array.from([0xef, 0xbb, 0xbf, ...windows1252('Société;Ville\nHélène;Brest\n')])
    expect(await refusal(mixed)).toEqual({ refused: 'unsupported_encoding', detail: { encoding: 'invalid-utf-8' } })
  })

  it('refuses an empty file, a header alone and a file too large', async () => {
    expect(await refusal(new Uint8Array())).toEqual({ refused: 'empty' })
    expect(await refusal(utf8('\r\n \r\n;;\r\n'))).toEqual({ refused: 'empty' })
    expect(await refusal(utf8('Nom;Ville\r\n'))).toEqual({ refused: 'empty' })
    expect(await refusal(utf8('Nom;Ville\nMartin;Brest\n'), 'a.csv', { maxBytes: 10 })).toEqual({ refused: 'too_large', detail: { bytes: 23, maxBytes: 10 } })
  })

  it('refuses a file whose first row holds values (no header)', async () => {
    expect(await refusal(utf8('Boulangerie Martin;55210055400013;29200\nDurand;73282932000017;35000\n'))).toEqual({
      refused: 'no_header',
      detail: { firstRow: ['Boulangerie Martin', '55210055400013', '29200'] },
    })
    expect(await refusal(utf8('contact@martin.fr,Martin\n'))).toMatchObject({ refused: 'no_header' })
  })

  it('refuses 50 001 rows whole, and reads 50 000', async () => {
    const rows = (count: number) => Array.from({ length: count }, (_, i) => `Entreprise ${i};${String(10000 + (i % 90000)).padStart(5, '0')};Ville ${i}`)
    const file = (count: number) => utf8(['Nom;Code postal;Ville', ...rows(count)].join('\r\n'))
    expect(await refusal(file(50_001))).toEqual({ refused: 'too_many_rows', detail: { rows: 50_001, maxRows: 50_000 } })
    const list = await parsed(file(50_000))
    expect(list.rows).toHaveLength(50_000)
    expect(list.lines.at(-1)).toBe(50_001)
  })
})

/** A workbook as a French user's sheet holds it: typed values, a postal code formatted "00000", a date, a formula. */
async function sampleWorkbook(): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook()
  workbook.addWorksheet('Cachée').state = 'hidden'
  const sheet = workbook.addWorksheet('Clients')
  sheet.addRow(['Raison sociale', 'SIRET', 'Code postal', 'Créée le', 'Effectif', 'Effectif x2', 'Ratio', 'Site'])
  sheet.addRow(['Boulangerie Martin', 55210055400013, 29200, new Date(Date.UTC(2024, 2, 15)), 12, { formula: 'E2*2', result: 24 }, 0.1 + 0.2, { text: 'martin.fr', hyperlink: 'https://martin.fr' }])
  sheet.addRow(['Fromagerie du Bugey', '73282932000017', 1500, new Date(Date.UTC(2023, 10, 2, 8, 30)), 3, { formula: 'E3*2', result: 6 }, 2, 'bugey.fr'])
  sheet.addRow([])
  sheet.addRow([{ richText: [{ text: 'Crêperie ' }, { text: 'Ty Ar Mor', font: { bold: true } }] }, '', 29000, null, null, { formula: 'NOW()' }, null, '=1+1'])
  sheet.getColumn(3).numFmt = '00000'
  return new Uint8Array(await workbook.xlsx.writeBuffer())
}

describe('parseListFile: XLSX', () => {
  it('reads the first visible sheet, each cell as Excel shows it, formulas as their saved result', async () => {
    const list = await parsed(await sampleWorkbook(), 'clients.xlsx')
    expect(list.format).toBe('xlsx')
    expect(list.headers).toEqual(['Raison sociale', 'SIRET', 'Code postal', 'Créée le', 'Effectif', 'Effectif x2', 'Ratio', 'Site'])
    expect(list.rows).toEqual([
      ['Boulangerie Martin', '55210055400013', '29200', '2024-03-15', '12', '24', '0.3', 'martin.fr'],
      ['Fromagerie du Bugey', '73282932000017', '01500', '2023-11-02T08:30:00', '3', '6', '2', 'bugey.fr'],
      // A formula without a saved result shows nothing (it is never run); text that looks like one stays text.
      ['Crêperie Ty Ar Mor', '', '29000', '', '', '', '', '=1+1'],
    ])
    expect(list.lines).toEqual([2, 3, 5])
    expect(guessColumnKinds(list.headers, list.rows)).toEqual(['name', 'siret', 'postal_code', 'ignore', 'ignore', 'ignore', 'ignore', 'website'])
  })

  it('refuses more rows than allowed, whole', async () => {
    expect(await refusal(await sampleWorkbook(), 'clients.xlsx', { maxRows: 2 })).toEqual({ refused: 'too_many_rows', detail: { rows: 3, maxRows: 2 } })
  })
})

interface FakeEntry {
  name: string
  data: Buffer
  /** Sizes the headers declare (the real ones by default). */
  uncompressedSize?: number
  /** Declared through a ZIP64 extra field (sizes past 4 GB). */
  zip64?: boolean
  method?: number
}

/** A zip written byte by byte, so its headers can say what a zip bomb's say. */
function zipOf(entries: readonly FakeEntry[]): Uint8Array {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const entry of entries) {
    const name = Buffer.from(entry.name)
    const size = entry.uncompressedSize ?? entry.data.length
    const extra = entry.zip64 ? Buffer.alloc(20) : Buffer.alloc(0)
    if (entry.zip64) {
      extra.writeUInt16LE(0x0001, 0)
      extra.writeUInt16LE(16, 2)
      extra.writeBigUInt64LE(BigInt(size), 4)
      extra.writeBigUInt64LE(BigInt(entry.data.length), 12)
    }
    const declared = entry.zip64 ? 0xffffffff : size
    const compressed = entry.zip64 ? 0xffffffff : entry.data.length
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(entry.method ?? 8, 8)
    local.writeUInt32LE(compressed, 18)
    local.writeUInt32LE(declared, 22)
    local.writeUInt16LE(name.length, 26)
    local.writeUInt16LE(extra.length, 28)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(entry.method ?? 8, 10)
    central.writeUInt32LE(compressed, 20)
    central.writeUInt32LE(declared, 24)
    central.writeUInt16LE(name.length, 28)
    central.writeUInt16LE(extra.length, 30)
    central.writeUInt32LE(offset, 42)
    locals.push(local, name, extra, entry.data)
    centrals.push(central, name, extra)
    offset += local.length + name.length + extra.length + entry.data.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return new Uint8Array(Buffer.concat([...locals, directory, end]))
}

const zeros = (bytes: number) => zlib.deflateRawSync(Buffer.alloc(bytes))

describe('parseListFile: zip bombs and other zips', () => {
  it('reads the central directory of a real XLSX', async () => {
    const entries = readCentralDirectory(Buffer.from(await sampleWorkbook()))
    expect(entries?.map((entry) => entry.name)).toContain('xl/workbook.xml')
  })

  it('refuses a zip whose directory declares 10 GB, before inflating anything', async () => {
    // Not even deflate data: inflating it would make the file 'unreadable_xlsx', not a bomb.
    const tiny = Buffer.from('never inflated')
    const zip64 = zipOf([{ name: '[Content_Types].xml', data: tiny, uncompressedSize: 10e9, zip64: true }])
    expect(readCentralDirectory(Buffer.from(zip64))?.[0]?.uncompressedSize).toBe(10e9)
    expect(await refusal(zip64, 'bomb.xlsx')).toEqual({ refused: 'zip_bomb', detail: { uncompressedBytes: 10e9 } })
    // The same 10 GB spread over entries of just under 4 GB each.
    const spread = zipOf(['xl/workbook.xml', 'xl/worksheets/sheet1.xml', 'xl/sharedStrings.xml'].map((name) => ({ name, data: tiny, uncompressedSize: 0xfffffffe })))
    expect(await refusal(spread, 'bomb.xlsx')).toMatchObject({ refused: 'zip_bomb' })
  })

  it('refuses as too large, not as a bomb, a zip past the total that compresses as spreadsheets do', async () => {
    const wide = zipOf([{ name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(6 * 1024 * 1024, 1), uncompressedSize: 60 * 1024 * 1024 }])
    expect(await refusal(wide, 'wide.xlsx')).toEqual({ refused: 'too_large', detail: { uncompressedBytes: 60 * 1024 * 1024, maxUncompressedBytes: 50 * 1024 * 1024 } })
  })

  it('refuses an entry compressed past the ratio cap, though within the total', async () => {
    const dense = zeros(20 * 1024 * 1024)
    expect(await refusal(zipOf([{ name: 'xl/workbook.xml', data: dense }]), 'dense.xlsx')).toMatchObject({ refused: 'zip_bomb' })
  })

  it('refuses an entry that holds more than it declares, stopped at what it declares', async () => {
    const liar = zipOf([{ name: 'xl/workbook.xml', data: zeros(5 * 1024 * 1024), uncompressedSize: 1024 }])
    expect(await refusal(liar, 'liar.xlsx')).toMatchObject({ refused: 'zip_bomb' })
  })

  it('refuses a zip that is no XLSX, and a broken one', async () => {
    const stored = (name: string, text: string) => ({ name, data: Buffer.from(text), method: 0 })
    expect(await refusal(zipOf([stored('mimetype', 'application/vnd.oasis.opendocument.spreadsheet'), stored('content.xml', '<x/>')]), 'a.ods')).toEqual({ refused: 'unreadable_xlsx', detail: { format: 'ods' } })
    expect(await refusal(zipOf([stored('readme.txt', 'hello')]), 'a.zip')).toEqual({ refused: 'unreadable_xlsx', detail: { format: 'zip' } })
    expect(await refusal(zipOf([stored('xl/workbook.xml', 'not xml at all')]), 'a.xlsx')).toEqual({ refused: 'unreadable_xlsx' })
    expect(await refusal(Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), 'a.xlsx')).toEqual({ refused: 'unreadable_xlsx' })
  })
})

describe('readListRows', () => {
  it('reads rows through the mapping: phones in E.164, unusable rows and repeated companies listed with their line', async () => {
    const text = [
      'Raison sociale;SIRET;Code postal;Ville;Site web;Tél.;Pays',
      'Boulangerie Martin;55210055400013;29200;Brest;www.martin.fr;02 98 44 00 00;France',
      'Boulangerie Martin (2);552 100 554 00013;29200;Brest;;;',
      'Bakkerij Peeters;;1000;Bruxelles;peeters.be;02 511 00 00;Belgique',
      'Nom sans lieu;;;;;01 42 00 00 00;',
      'Faute de frappe;55210055400014;29200;Brest;;;',
      'Chez Léa;;75011;Paris;;pas de numéro;',
      'CHEZ LEA;;75011;Paris;;;',
    ].join('\r\n')
    const list = await parsed(utf8(text))
    const columns = guessColumnKinds(list.headers, list.rows)
    expect(columns).toEqual(['name', 'siret', 'postal_code', 'city', 'website', 'phone', 'country'])
    const reading = readListRows(list, { columns })
    expect(reading.rows.map(({ line, name, phone, countryCode, postalCode }) => ({ line, name, phone, countryCode, postalCode }))).toEqual([
      { line: 2, name: 'Boulangerie Martin', phone: '+33298440000', countryCode: 'FR', postalCode: '29200' },
      { line: 4, name: 'Bakkerij Peeters', phone: '+3225110000', countryCode: 'BE', postalCode: '1000' },
      { line: 7, name: 'Chez Léa', phone: null, countryCode: null, postalCode: '75011' },
    ])
    expect(reading.rows[2]?.notes).toEqual([{ code: 'invalid_phone', column: 5 }])
    expect(reading.unusable.map(({ line, problem }) => [line, problem.code])).toEqual([
      [5, 'name_without_place'],
      [6, 'invalid_siret'],
    ])
    expect(reading.duplicates).toEqual([
      { line: 3, sameAs: 2 },
      { line: 8, sameAs: 7 },
    ])
    expect(readListRows(list, { columns }, { limit: 2 }).rows).toHaveLength(1)
  })
})

describe('refusal codes', () => {
  // Runs last (tests of a file run in order): the files above gave each code the UI localizes.
  it('every refusal code comes from some file above', () => {
    expect([...refusalsSeen].sort()).toEqual([...LIST_FILE_REFUSALS].sort())
  })
})
