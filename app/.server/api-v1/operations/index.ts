// Every /api/v1 operation: served by dispatch.ts and described by openapi.ts from this one list.
import type { ApiOperation } from '../operation.ts'
import { companyOperations } from './companies.ts'
import { creditOperations } from './credits.ts'
import { doNotContactOperations } from './do-not-contact.ts'
import { exportDataOperations } from './export-data.ts'
import { enrichmentOperations } from './enrichments.ts'
import { exportOperations } from './exports.ts'
import { integrationOperations } from './integrations.ts'
import { previewOperations } from './previews.ts'
import { referenceOperations } from './reference.ts'
import { savedSearchOperations } from './saved-searches.ts'
import { webhookOperations } from './webhooks.ts'

export const API_OPERATIONS: readonly ApiOperation[] = [...referenceOperations, ...creditOperations, ...previewOperations, ...companyOperations, ...exportOperations, ...enrichmentOperations, ...exportDataOperations, ...doNotContactOperations, ...webhookOperations, ...savedSearchOperations, ...integrationOperations]
