// Runs in a worker thread (piscina): bcrypt's ~60 ms of CPU per hash stays off the event loop
// that renders pages. Plain JavaScript so it loads the same under tsx, vitest and a build.
import bcrypt from 'bcryptjs'

export function hash({ password, cost }) {
  return bcrypt.hash(password, cost)
}

export function compare({ password, hash }) {
  return bcrypt.compare(password, hash)
}
