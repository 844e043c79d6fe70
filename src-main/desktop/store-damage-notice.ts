import type { MessageBoxOptions } from 'electron'
import type { Service } from '../service'

/**
 * The desktop app's word on a damaged store (issue 36): the message box to show once the check on
 * open finds damage, at once or when a large store's background check ends; null when it finds
 * none. The console's banner says the same on every page; the box makes sure it is seen once.
 */
export async function storeDamageNotice(service: Pick<Service, 'storeCheck' | 'handle'>): Promise<MessageBoxOptions | null> {
  const check = service.storeCheck
  if (!check) return null
  const found = check.problems.length > 0 || (check.background !== null && (await check.background).length > 0)
  const damage = found ? service.handle.health.damage : null
  if (!damage) return null
  return {
    type: 'warning',
    message: 'The store is damaged',
    detail: `${damage.message}\n\nThe console keeps showing what it can read; a banner on every page says what is wrong.`,
    buttons: ['OK'],
    noLink: true,
  }
}
