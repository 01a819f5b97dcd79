import type { RouterContextProvider } from 'react-router'
import { profileToAuthMetadata, type Profile } from '#app/domain/auth.ts'
import type { SessionUser } from './auth.ts'
import { withUser } from './db.ts'
import { getSupabase } from './supabase.ts'

export async function readProfile(user: SessionUser): Promise<Profile> {
  const row = await withUser(user.claims, (trx) =>
    trx.selectFrom('users').select(['first_name', 'last_name', 'company_name', 'phone']).where('id', '=', user.id).executeTakeFirst(),
  )
  return {
    firstName: row?.first_name ?? '',
    lastName: row?.last_name ?? '',
    companyName: row?.company_name ?? '',
    phone: row?.phone ?? '',
  }
}

/** Writes the auth metadata and the users row (SPEC §5 Settings); both or an error. */
export async function updateProfile(context: Readonly<RouterContextProvider>, user: SessionUser, profile: Profile) {
  const { error } = await getSupabase(context).auth.updateUser({ data: profileToAuthMetadata(profile) })
  if (error) return { ok: false as const, message: error.message }
  await withUser(user.claims, (trx) =>
    trx
      .updateTable('users')
      .set({
        first_name: profile.firstName || null,
        last_name: profile.lastName || null,
        company_name: profile.companyName || null,
        phone: profile.phone || null,
      })
      .where('id', '=', user.id)
      .execute(),
  )
  return { ok: true as const }
}
