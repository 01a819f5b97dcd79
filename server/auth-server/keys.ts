import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose'

/** What the key file holds: one ES256 key pair as JWKs, identified by `kid`. */
export interface SigningKeyFile {
  kid: string
  alg: 'ES256'
  /** Seconds since epoch; also the `iat` of the anon / service_role keys. */
  createdAt: number
  privateJwk: JWK
  publicJwk: JWK
}

export interface SigningKeys {
  kid: string
  createdAt: number
  privateKey: CryptoKey
  publicKey: CryptoKey
  /** The public key as published at /.well-known/jwks.json. */
  publicJwk: JWK
}

/**
 * Loads the signing key pair from `keyFile`, generating it on first start. Reusing the key
 * across restarts keeps sessions (cookies) and the anon key of a dev database valid.
 */
export async function loadOrCreateSigningKeys(keyFile: string): Promise<SigningKeys> {
  if (!fs.existsSync(keyFile)) await createKeyFile(keyFile)
  return importKeyFile(readSigningKeyFile(keyFile))
}

export function readSigningKeyFile(keyFile: string): SigningKeyFile {
  const parsed = JSON.parse(fs.readFileSync(keyFile, 'utf8')) as SigningKeyFile
  if (parsed.alg !== 'ES256' || !parsed.kid || !parsed.privateJwk?.d) {
    throw new Error(`${keyFile} is not an ES256 signing key file`)
  }
  return parsed
}

async function importKeyFile(file: SigningKeyFile): Promise<SigningKeys> {
  return {
    kid: file.kid,
    createdAt: file.createdAt,
    privateKey: (await importJWK(file.privateJwk, 'ES256')) as CryptoKey,
    publicKey: (await importJWK(file.publicJwk, 'ES256')) as CryptoKey,
    publicJwk: {
      ...file.publicJwk,
      kid: file.kid,
      alg: 'ES256',
      use: 'sig',
      key_ops: ['verify'],
      // supabase-js imports the JWK as extractable; `ext: false` would make that throw.
      ext: true,
    },
  }
}

async function createKeyFile(keyFile: string) {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true })
  const kid = crypto.randomUUID()
  const file: SigningKeyFile = {
    kid,
    alg: 'ES256',
    createdAt: Math.floor(Date.now() / 1000),
    privateJwk: { ...(await exportJWK(privateKey)), kid, alg: 'ES256' },
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256' },
  }
  fs.mkdirSync(path.dirname(keyFile), { recursive: true })
  // Write to a temporary file and hard-link it into place: the link fails if another process
  // won the race, and nobody ever reads a half-written key file.
  const temporary = `${keyFile}.${process.pid}.${crypto.randomUUID()}.tmp`
  fs.writeFileSync(temporary, JSON.stringify(file, null, 2) + '\n', { mode: 0o600 })
  try {
    fs.linkSync(temporary, keyFile)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  } finally {
    fs.rmSync(temporary, { force: true })
  }
}
