import { readFileSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../test/helpers/temp-dir'
import { createSettingsStore, DEFAULT_SETTINGS } from './desktop-settings'

describe('desktop settings', () => {
  const dir = tempDir()

  it('starts from the defaults: listener off on 127.0.0.1:8787, no team server, no scheduled backups', () => {
    expect(createSettingsStore(`${dir}/none/settings.json`).get()).toEqual({
      windowBounds: null,
      listener: { enabled: false, host: '127.0.0.1', port: 8787, allowNonLoopback: false },
      lastDatabase: null,
      teamServer: null,
      backups: { every: null, keep: 7, dir: null },
    })
  })

  it('keeps a backup schedule across restarts, and drops one it cannot read without costing the other fields', () => {
    const file = `${dir}/backups.json`
    createSettingsStore(file).update({ backups: { every: '24h', keep: 3, dir: '/mnt/backups' }, lastDatabase: '/data/a.sqlite' })
    expect(createSettingsStore(file).get().backups).toEqual({ every: '24h', keep: 3, dir: '/mnt/backups' })
    writeFileSync(file, JSON.stringify({ backups: { every: 'daily', keep: 3, dir: null }, lastDatabase: '/data/a.sqlite' }))
    expect(createSettingsStore(file).get()).toMatchObject({ backups: { every: null, keep: 7, dir: null }, lastDatabase: '/data/a.sqlite' })
  })

  it('persists across restarts', () => {
    const file = `${dir}/settings.json`
    const store = createSettingsStore(file)
    store.update({ listener: { enabled: true, host: '127.0.0.1', port: 9100, allowNonLoopback: false } })
    store.update({ windowBounds: { x: 10, y: 20, width: 1200, height: 800, maximized: false } })
    const reopened = createSettingsStore(file).get()
    expect(reopened.listener).toEqual({ enabled: true, host: '127.0.0.1', port: 9100, allowNonLoopback: false })
    expect(reopened.windowBounds).toEqual({ x: 10, y: 20, width: 1200, height: 800, maximized: false })
    expect(JSON.parse(readFileSync(file, 'utf8')).listener.port).toBe(9100)
  })

  it('falls back to defaults for a corrupt file, field by field for bad values', () => {
    const corrupt = `${dir}/corrupt.json`
    writeFileSync(corrupt, '{"listener": {"enab')
    expect(createSettingsStore(corrupt).get()).toEqual(DEFAULT_SETTINGS)
    const partly = `${dir}/partly.json`
    writeFileSync(partly, JSON.stringify({ listener: { enabled: true, host: '0.0.0.0', port: 80 }, lastDatabase: '/data/demo.sqlite' }))
    // A non-loopback host without the explicit permission is not taken; the rest is.
    expect(createSettingsStore(partly).get()).toMatchObject({ listener: DEFAULT_SETTINGS.listener, lastDatabase: '/data/demo.sqlite' })
  })
})
