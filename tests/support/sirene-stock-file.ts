// A generated INSEE StockEtablissement CSV: the real header (2024 edition, 53 columns, read by name by the loader)
// and rows made from their number alone, so a test or the bench can say what any row holds without keeping the file
// in memory. Every 10th row is closed, every 25th is in partial diffusion ("P", masked fields "[ND]"), every 7th has
// no headcount ("NN"), and creations are spread over the 540 days before `today`.
import fs from 'node:fs'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import zlib from 'node:zlib'

export const STOCK_HEADER = [
  'siren', 'nic', 'siret', 'statutDiffusionEtablissement', 'dateCreationEtablissement', 'trancheEffectifsEtablissement',
  'anneeEffectifsEtablissement', 'activitePrincipaleRegistreMetiersEtablissement', 'dateDernierTraitementEtablissement',
  'etablissementSiege', 'nombrePeriodesEtablissement', 'complementAdresseEtablissement', 'numeroVoieEtablissement',
  'indiceRepetitionEtablissement', 'dernierNumeroVoieEtablissement', 'indiceRepetitionDernierNumeroVoieEtablissement',
  'typeVoieEtablissement', 'libelleVoieEtablissement', 'codePostalEtablissement', 'libelleCommuneEtablissement',
  'libelleCommuneEtrangerEtablissement', 'distributionSpecialeEtablissement', 'codeCommuneEtablissement',
  'codeCedexEtablissement', 'libelleCedexEtablissement', 'codePaysEtrangerEtablissement', 'libellePaysEtrangerEtablissement',
  'identifiantAdresseEtablissement', 'coordonneeLambertAbscisseEtablissement', 'coordonneeLambertOrdonneeEtablissement',
  'complementAdresse2Etablissement', 'numeroVoie2Etablissement', 'indiceRepetition2Etablissement', 'typeVoie2Etablissement',
  'libelleVoie2Etablissement', 'codePostal2Etablissement', 'libelleCommune2Etablissement', 'libelleCommuneEtranger2Etablissement',
  'distributionSpeciale2Etablissement', 'codeCommune2Etablissement', 'codeCedex2Etablissement', 'libelleCedex2Etablissement',
  'codePaysEtranger2Etablissement', 'libellePaysEtranger2Etablissement', 'dateDebut', 'etatAdministratifEtablissement',
  'enseigne1Etablissement', 'enseigne2Etablissement', 'enseigne3Etablissement', 'denominationUsuelleEtablissement',
  'activitePrincipaleEtablissement', 'nomenclatureActivitePrincipaleEtablissement', 'caractereEmployeurEtablissement',
]

const STOCK_PLACES = [
  { commune: '69123', postcode: '69003', city: 'LYON', department: '69' },
  { commune: '33063', postcode: '33000', city: 'BORDEAUX', department: '33' },
  { commune: '75056', postcode: '75011', city: 'PARIS', department: '75' },
  { commune: '2A004', postcode: '20000', city: 'AJACCIO', department: '2A' },
  { commune: '97105', postcode: '97100', city: 'BASSE-TERRE', department: '971' },
  { commune: '13055', postcode: '13001', city: 'MARSEILLE', department: '13' },
  { commune: '31555', postcode: '31000', city: 'TOULOUSE', department: '31' },
  { commune: '59350', postcode: '59000', city: 'LILLE', department: '59' },
]
export const STOCK_NAFS = ['10.71C', '43.22A', '56.10A', '96.02A', '47.73Z', '62.01Z', '86.23Z', '47.76Z', '10.13B', '45.20A', '69.20Z']
const BANDS = ['00', '01', '02', '03', '11', '12', '21']

export interface StockRowFacts {
  siret: string
  siren: string
  closed: boolean
  partial: boolean
  createdOn: string
  naf: string
  headcount: string | null
  place: (typeof STOCK_PLACES)[number]
  name: string
  processedAt: string
}

const DAY_MS = 86_400_000

/** What row `n` (0-based) holds. */
export function stockRowFacts(n: number, today: string): StockRowFacts {
  const siren = String(100_000_000 + ((n * 7919) % 900_000_000)).padStart(9, '0')
  const siret = `${siren}${String(10 + (n % 90_000)).padStart(5, '0')}`
  const created = new Date(Date.parse(`${today}T00:00:00Z`) - ((n * 37) % 540) * DAY_MS).toISOString().slice(0, 10)
  const partial = n % 25 === 3
  return {
    siret,
    siren,
    closed: n % 10 === 9,
    partial,
    createdOn: created,
    naf: STOCK_NAFS[n % STOCK_NAFS.length]!,
    headcount: n % 7 === 0 ? null : BANDS[n % BANDS.length]!,
    place: STOCK_PLACES[(n >> 1) % STOCK_PLACES.length]!,
    name: partial ? '' : `ETABLISSEMENT ${n}`,
    processedAt: `${created}T08:30:00`,
  }
}

const quote = (value: string) => (/[",\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value)

function stockLine(n: number, today: string): string {
  const f = stockRowFacts(n, today)
  const masked = (value: string) => (f.partial ? '[ND]' : value)
  const values: Record<string, string> = {
    siren: f.siren, nic: f.siret.slice(9), siret: f.siret, statutDiffusionEtablissement: f.partial ? 'P' : 'O',
    dateCreationEtablissement: f.createdOn, trancheEffectifsEtablissement: f.headcount ?? 'NN', anneeEffectifsEtablissement: f.headcount ? '2023' : '',
    dateDernierTraitementEtablissement: f.processedAt, etablissementSiege: n % 3 === 0 ? 'true' : 'false', nombrePeriodesEtablissement: '1',
    numeroVoieEtablissement: masked(String(1 + (n % 120))), typeVoieEtablissement: masked('RUE'), libelleVoieEtablissement: masked(`DE LA "PAIX", ${n % 50}`),
    codePostalEtablissement: f.place.postcode, libelleCommuneEtablissement: f.place.city, codeCommuneEtablissement: f.place.commune,
    identifiantAdresseEtablissement: masked(`${f.place.commune}_0${n % 9}`), coordonneeLambertAbscisseEtablissement: masked('842100.5'), coordonneeLambertOrdonneeEtablissement: masked('6519000.1'),
    dateDebut: f.createdOn, etatAdministratifEtablissement: f.closed ? 'F' : 'A', enseigne1Etablissement: f.partial ? '[ND]' : f.name,
    activitePrincipaleEtablissement: f.naf, nomenclatureActivitePrincipaleEtablissement: 'NAFRev2', caractereEmployeurEtablissement: f.headcount ? 'O' : 'N',
  }
  return STOCK_HEADER.map((column) => quote(values[column] ?? '')).join(',')
}

/** Writes a `rows`-row stock CSV to `file` (gzip-compressed when `gzip`), streamed: any size in flat memory. */
export async function writeStockFile(file: string, rows: number, { today, gzip = false, extraLines = [] }: { today: string; gzip?: boolean; extraLines?: string[] }): Promise<void> {
  async function* lines() {
    yield `${STOCK_HEADER.join(',')}\n`
    let chunk = ''
    for (let n = 0; n < rows; n++) {
      chunk += `${stockLine(n, today)}\n`
      if (chunk.length > 64 * 1024) {
        yield chunk
        chunk = ''
      }
    }
    for (const line of extraLines) chunk += `${line}\n`
    if (chunk) yield chunk
  }
  const out = fs.createWriteStream(file)
  await (gzip ? pipeline(Readable.from(lines()), zlib.createGzip({ level: 1 }), out) : pipeline(Readable.from(lines()), out))
}

/** A zip holding `entries` (deflated), as data.gouv.fr publishes the stock: enough of the format for the loader's tests. */
export function zipOf(entries: Array<{ name: string; data: Buffer }>): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const { name, data } of entries) {
    const nameBytes = Buffer.from(name)
    const deflated = zlib.deflateRawSync(data)
    const fields = (header: Buffer, at: number) => {
      header.writeUInt16LE(20, at) // version needed
      header.writeUInt16LE(0, at + 2) // flags
      header.writeUInt16LE(8, at + 4) // deflate
      header.writeUInt32LE(0, at + 6) // time, date
      header.writeUInt32LE(zlib.crc32(data), at + 10)
      header.writeUInt32LE(deflated.length, at + 14)
      header.writeUInt32LE(data.length, at + 18)
      header.writeUInt16LE(nameBytes.length, at + 22)
    }
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    fields(local, 4)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4) // version made by
    fields(central, 6)
    central.writeUInt32LE(offset, 42)
    locals.push(local, nameBytes, deflated)
    centrals.push(central, nameBytes)
    offset += local.length + nameBytes.length + deflated.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, directory, end])
}
