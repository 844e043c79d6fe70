import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { SeedOptions } from '../../src-main/seed'
import { createService } from '../../src-main/service'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Path of the demo database test/global-setup.ts seeded for this run: copy it, never open it. */
    demoTemplate: string
  }
}

export const SEED_ANCHOR = Date.parse('2026-11-20T12:00:00.000Z')

/** The small demo set every HTTP, integration and e2e test asserts against: fixed seed and anchor. */
export const DEMO_SEED: SeedOptions = { scale: 'small', seed: 11, anchor: SEED_ANCHOR }

/**
 * Seeds the demo set into a new database file in `dir` and closes it, so the file alone holds it
 * (no -wal or -shm beside it) and a plain file copy is a complete, private database.
 */
export async function writeDemoTemplate(dir: string): Promise<string> {
  const path = join(dir, 'demo-template.sqlite')
  // One thread, no reader pool: the template is written and closed before anything reads it.
  const service = await createService({ dbPath: path, seedNewDatabase: false, readers: 0 })
  try {
    await service.database.seed(DEMO_SEED)
    service.handle.sqlite.pragma('wal_checkpoint(TRUNCATE)')
  } finally {
    await service.close()
  }
  // Closing the last connection checkpoints and removes the WAL; a leftover one would hold rows
  // that a copy of the main file alone would silently miss.
  for (const suffix of ['-wal', '-shm']) if (existsSync(path + suffix)) throw new Error(`the demo template left ${path}${suffix} behind`)
  return path
}
