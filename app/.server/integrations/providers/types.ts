/**
 * What every CRM adapter does, whatever its API: check the credentials, make the CRM ready for our records (custom
 * properties, fields, a header row), upsert a batch of records by their dedupe key, and (HubSpot, Brevo) list the
 * addresses that opted out. The push job (../push-run.ts) only speaks this interface.
 */
import type { CrmMapping, CrmRecord, CrmRowResult } from '#app/domain/crm.ts'
import type { BudgetWindow } from '#app/.server/limits/windows.ts'
import type { CrmHttp, CrmHttpOptions } from '../crm-http.ts'

/**
 * What an adapter remembers between pushes, stored with the connection (crm_connections.settings): ids the CRM gave
 * our custom fields, the sheet's tab. Written only by `prepare`.
 */
export interface ConnectionSettings {
  /** HubSpot: the unique-value company property our records are upserted by exists. */
  hubspotPropertiesReady?: boolean
  /** Pipedrive: the 40-character keys of our custom organization fields, by CrmField. */
  pipedriveFieldKeys?: Record<string, string>
  /** Brevo: the list our contacts are added to (optional). */
  brevoListId?: number
  /** Sheets: the spreadsheet (from its URL or id) and the tab, default the first. */
  spreadsheetId?: string
  sheetName?: string
}

export type TestOutcome = { ok: true; account: string } | { ok: false; reason: string }

export interface OptOutPage {
  emails: string[]
  /** Where the next read starts (ISO time or the provider's cursor). */
  cursor: string
}

export interface CrmAdapter {
  /** Records per upsert call (HubSpot 100, the others what their batch endpoints take). */
  readonly batchSize: number
  /** Checks the credentials with one cheap call: the account's name or id, or the CRM's reason (Sheets: with settings.spreadsheetId). */
  test(settings: ConnectionSettings): Promise<TestOutcome>
  /** Idempotent: creates what our records need in the CRM and returns the settings to store. */
  prepare(settings: ConnectionSettings): Promise<ConnectionSettings>
  /**
   * Creates or updates each record (found again by `record.key`): one result per record, in order. A row the CRM
   * refuses is a `failed` result with its reason; a whole-batch outage throws CrmUnavailableError (the job retries),
   * refused credentials throw CrmAuthError.
   */
  upsert(records: readonly CrmRecord[], mapping: CrmMapping, settings: ConnectionSettings): Promise<CrmRowResult[]>
  /** The addresses unsubscribed or marked do-not-contact since `cursor` (null: the beginning). */
  optOuts?(cursor: string | null): Promise<OptOutPage>
}

export interface AdapterContext {
  /** The decrypted credential: a token or key, or a Google service-account JSON (empty for an OAuth connection). */
  secret: string
  /**
   * An OAuth connection's access token, fresh (refreshed when it expires): sent as `Authorization: Bearer` instead
   * of the pasted credential's own header.
   */
  bearer?: () => Promise<string>
  /** The API's base URL (the module's default; tests point it at a local fake). */
  baseUrl: string
  /** Google only: the OAuth token endpoint (never the service account's own `token_uri`: a pasted file must not choose where we connect). */
  tokenUrl?: string
  /** The client for this connection, sending `headers` (the credentials) with every request, within the module's budgets. */
  http(headers: CrmHttpOptions['headers']): CrmHttp
}

export interface CrmProviderModule {
  /** The production API. */
  defaultBaseUrl: string
  /** The provider's documented limits for one account, counted across every process (e.g. HubSpot 100 per 10 s). */
  budgets: readonly Omit<BudgetWindow, 'key'>[]
  /** Checks the pasted credential's shape before anything is stored: null when fine, else a reason code. */
  checkSecret(secret: string): 'invalid_secret' | null
  create(context: AdapterContext): CrmAdapter
}
