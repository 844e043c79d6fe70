import { existsSync, rmSync } from 'node:fs'
import { createService, type Service } from '../service'

export interface DatabaseSession {
  /** The open service; throws before the first open. */
  current(): Service
  /**
   * Opens another database (File → Open, File → New demo database) and closes the previous one
   * once the new one is ready: a file that fails to open leaves the app on the old one.
   */
  open(path: string, options?: { demo?: boolean; seedIfNew?: boolean }): Promise<Service>
  close(): Promise<void>
}

export function createDatabaseSession(options: { nativeBinding?: string } = {}): DatabaseSession {
  let service: Service | null = null
  return {
    current() {
      if (!service) throw new Error('no database is open')
      return service
    },
    async open(path, { demo = false, seedIfNew = false } = {}) {
      if (demo && existsSync(path)) {
        // The save dialog already asked whether to replace it; the open file is closed first.
        if (service?.handle.path === path) await this.close()
        for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${path}${suffix}`, { force: true })
      }
      const next = await createService({ dbPath: path, nativeBinding: options.nativeBinding, seedNewDatabase: demo || seedIfNew ? 'small' : false })
      const previous = service
      service = next
      await previous?.close()
      return next
    },
    async close() {
      const previous = service
      service = null
      await previous?.close()
    },
  }
}
