// The download preset a user last chose (users.download_preset): the export page preselects it, and a
// download with a preset remembers it. Read and written as the user: RLS keeps it to their own row.
import { storedDownloadPreset, type DownloadPreset } from '#app/domain/download-presets.ts'
import { withUser, type UserClaims } from '../db.ts'

/** The signed-in user (SessionUser fits). */
interface PreferenceOwner {
  id: string
  claims: UserClaims
}

export async function readDownloadPreset(user: PreferenceOwner): Promise<DownloadPreset> {
  const row = await withUser(user.claims, (trx) => trx.selectFrom('users').select('download_preset').where('id', '=', user.id).executeTakeFirst())
  return storedDownloadPreset(row?.download_preset)
}

export async function rememberDownloadPreset(user: PreferenceOwner, preset: DownloadPreset): Promise<void> {
  await withUser(user.claims, (trx) => trx.updateTable('users').set({ download_preset: preset }).where('id', '=', user.id).execute())
}
