import bcrypt from 'bcryptjs'

const BCRYPT_COST = 10

export function hashPassword(password: string) {
  return bcrypt.hash(password, BCRYPT_COST)
}

// Compared against when the email is unknown, so a miss costs as much time as a wrong
// password and response times do not reveal which emails have accounts.
const DUMMY_HASH = bcrypt.hashSync('not-a-real-password', BCRYPT_COST)

/** True when `password` matches `hash`; false (after the same work) when there is no hash. */
export async function verifyPassword(password: string, hash: string | null | undefined) {
  const matches = await bcrypt.compare(password, hash || DUMMY_HASH)
  return Boolean(hash) && matches
}
