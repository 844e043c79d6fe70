import { copyFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { beforeAll, describe, expect, it } from 'vitest'
import { damageMiddleOf } from '../../test/helpers/damaged-store'
import { tempDir } from '../../test/helpers/temp-dir'
import { openDatabase } from './connection'
import { checkOnOpen } from './open-check'
import { checkHeader, QUICK_CHECK_AT_ONCE_BYTES } from './store-check'

const dir = tempDir()
const sound = join(dir, 'sound.sqlite')

beforeAll(() => {
  const db = new Database(sound)
  db.exec('create table notes (id integer primary key, body text not null)')
  const insert = db.prepare('insert into notes (body) values (?)')
  db.transaction(() => {
    for (let i = 0; i < 5000; i++) insert.run(`note ${i} `.padEnd(300, 'x'))
  })()
  db.close()
})

/** The store as serve opens it (a read pool beside the writer), its header read as if it were `fileBytes` long. */
function opened(path: string, fileBytes?: number) {
  const header = checkHeader(path)
  const handle = openDatabase({ path, readers: 1 })
  return { handle, header: fileBytes === undefined ? header : { ...header, fileBytes } }
}

describe('checkOnOpen', () => {
  it('runs quick_check at once on a small store and finds nothing on a sound one', async () => {
    const { handle, header } = opened(sound)
    try {
      const check = await checkOnOpen(handle, header)
      expect(check).toMatchObject({ problems: [], background: null })
      expect(handle.health.damage).toBeNull()
    } finally {
      await handle.close()
    }
  })

  it('on a large store answers before quick_check ends, and notes the damage it finds in the background', async () => {
    const path = join(dir, 'damaged.sqlite')
    copyFileSync(sound, path)
    damageMiddleOf(path, 'notes', 3)
    const { handle, header } = opened(path, QUICK_CHECK_AT_ONCE_BYTES + 1)
    try {
      const check = await checkOnOpen(handle, header)
      expect(check.problems).toEqual([])
      expect(check.background).not.toBeNull()
      const later = await check.background!
      expect(later.length).toBeGreaterThan(0)
      expect(handle.health.damage?.message).toMatch(new RegExp(`^Checking the store failed: the store is damaged \\(${path}: `))
      expect(handle.health.damage?.message).toContain(`callscope db recover --db ${path} --out NEW.db`)
    } finally {
      await handle.close()
    }
  })

  it('stops a background check when the store closes, noting nothing', async () => {
    const path = join(dir, 'stopped.sqlite')
    copyFileSync(sound, path)
    damageMiddleOf(path, 'notes', 3)
    const { handle, header } = opened(path, QUICK_CHECK_AT_ONCE_BYTES + 1)
    const check = await checkOnOpen(handle, header)
    await check.stop()
    expect(await check.background).toEqual([])
    expect(handle.health.damage).toBeNull()
    await handle.close()
  })
})
