import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { damageMiddleOf } from '../../test/helpers/damaged-store'
import { tempDir } from '../../test/helpers/temp-dir'
import { createService } from '../service'
import { storeDamageNotice } from './store-damage-notice'

describe('storeDamageNotice', () => {
  it('is null for a sound store and names the damage and what to run for a damaged one', { timeout: 60_000 }, async () => {
    const path = join(tempDir(), 'desktop.sqlite')
    const seeded = await createService({ dbPath: path, seedNewDatabase: 'small', readers: 0 })
    await seeded.close()

    // As the desktop app opens it: reader threads, so the check on open runs quick_check.
    const sound = await createService({ dbPath: path, readers: 1 })
    try {
      expect(await storeDamageNotice(sound)).toBeNull()
    } finally {
      await sound.close()
    }

    damageMiddleOf(path, 'call_logs', 3)
    const damaged = await createService({ dbPath: path, readers: 1 })
    try {
      const box = await storeDamageNotice(damaged)
      expect(box).toMatchObject({ type: 'warning', message: 'The store is damaged' })
      expect(box!.detail).toContain(`the store is damaged (${path}`)
      expect(box!.detail).toContain(`callscope db recover --db ${path} --out NEW.db`)
    } finally {
      await damaged.close()
    }
  })
})
