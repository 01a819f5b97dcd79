// The shape of an API key (../shared/API.md): `la_` + at least 32 base62 characters. Pure.
export const API_KEY_PREFIX_LENGTH = 8
export const API_KEY_NAME_MAX = 100

const KEY_SHAPE = /^la_[0-9A-Za-z]{32,100}$/

export function isApiKeyShaped(value: string): boolean {
  return KEY_SHAPE.test(value)
}

/** A key as the user's list shows it (never the key itself). */
export interface ApiKeyListing {
  id: string
  name: string
  prefix: string
  createdAt: string
  lastUsedAt: string | null
  revokedAt: string | null
  /** Made by the viewer (owners and admins also see their team's keys). */
  mine: boolean
  /** Who made a teammate's key (their email), for owners and admins; null for the viewer's own. */
  author: string | null
}
