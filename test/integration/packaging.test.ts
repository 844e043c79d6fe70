import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as {
  main: string
  scripts: Record<string, string>
  build: { files: string[]; asarUnpack: string[]; npmRebuild: boolean; linux: { target: string[] }; mac: { target: string[] }; win: { target: string[] }}
}

describe('desktop packaging (electron-builder, "build" in package.json)', () => {
  it('builds AppImage and deb, dmg and nsis from the electron-vite output', () => {
    expect(pkg.scripts.package).toBe('electron-vite build && electron-builder')
    expect(pkg.build.linux.target).toEqual(['AppImage', 'deb'])
    expect(pkg.build.mac.target).toEqual(['dmg'])
    expect(pkg.build.win.target).toEqual(['nsis'])
    expect(pkg.build.files).toContain('out/**')
    expect(pkg.main).toBe('./out/main/index.js')
  })

  it('rebuilds better-sqlite3 for Electron and keeps it outside the asar archive', () => {
    expect(pkg.build.npmRebuild).toBe(true)
    expect(pkg.build.asarUnpack).toContain('node_modules/better-sqlite3/**')
    expect(pkg.build.asarUnpack).toContain('resources/**')
  })
})
