import { assertNotTenantScoped, type Principal } from '../../kit/access'
import type { RuntimeInfo } from '../../kit/runtime'
import type { DatabaseInfo } from '../database/database.service'

export interface SettingsInfo {
  database: DatabaseInfo
  runtime: RuntimeInfo
}

/**
 * What the console's settings page shows: the store (path, size, schema, row counts) and how this
 * process serves the console. Admin and viewer tokens only: the row counts span every tenant, and
 * a tenant token is meant for one tenant's data (docs/api.md, "Console").
 */
export async function settingsInfo(
  principal: Principal,
  database: () => Promise<DatabaseInfo>,
  runtime: RuntimeInfo,
): Promise<SettingsInfo> {
  assertNotTenantScoped(principal, 'the settings')
  return { database: await database(), runtime: { mode: runtime.mode, listenerUrl: runtime.listenerUrl } }
}
