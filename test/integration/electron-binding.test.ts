import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { createServer, type AddressInfo } from 'node:net'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM script without types
import { bindingPlan, findNodeGyp } from '../../scripts/electron-binding.mjs'

function electronInstalled(): boolean {
  try {
    createRequire(import.meta.url)('electron')
    return true
  } catch {
    return false
  }
}

const root = '/repo'
const base = { root, electronVersion: '41.7.1', platform: 'linux', arch: 'x64', nodeGyp: '/npm/node-gyp.js' }
const binding = join(root, 'build/electron-binding/electron-41.7.1-linux-x64/better_sqlite3.node')

describe('the Electron build of better-sqlite3', () => {
  it('is reused once built for this Electron version, platform and architecture', () => {
    expect(bindingPlan({ ...base, exists: (p: string) => p === binding })).toEqual({ binding, build: null })
  })

  it('is built with node-gyp against Electron headers when missing', () => {
    const plan = bindingPlan({ ...base, exists: () => false })
    expect(plan.binding).toBe(binding)
    expect(plan.build.args).toEqual([
      '/npm/node-gyp.js', 'rebuild', '--release', '--runtime=electron', '--target=41.7.1', '--arch=x64', '--dist-url=https://electronjs.org/headers',
    ])
    expect(plan.build.output).toBe(join(root, 'build/electron-binding/electron-41.7.1-linux-x64/better-sqlite3/build/Release/better_sqlite3.node'))
    // Another Electron version is another binding.
    expect(bindingPlan({ ...base, electronVersion: '42.0.0', exists: () => false }).binding).toContain('electron-42.0.0-linux-x64')
  })

  it('finds the node-gyp that ships with npm', () => {
    const nodeGyp = findNodeGyp()
    expect(nodeGyp).toMatch(/node-gyp\.js$/)
    expect(spawnSync(process.execPath, [nodeGyp, '--version'], { encoding: 'utf8' }).stdout).toMatch(/^v\d+/)
  })

  // Where Electron's binary is installed, npm start would open the app instead. The mirror is a
  // loopback port nobody listens on, so the first-start download fails at once on any machine.
  it.skipIf(electronInstalled())('npm start says why and what to do when Electron cannot be fetched', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo
        probe.close(() => resolve(port))
      })
    })
    const result = spawnSync(process.execPath, [join(import.meta.dirname, '../../scripts/start-desktop.mjs')], {
      encoding: 'utf8',
      env: { ...process.env, ELECTRON_MIRROR: `http://127.0.0.1:${closedPort}/`, electron_config_cache: join(import.meta.dirname, '../../scratch/electron-cache') },
    })
    expect(result.status).toBe(1)
    expect(result.stderr).toContain('is not installed yet; downloading it once')
    expect(result.stderr).toMatch(/could not download Electron [\d.]+ from the mirror .*ECONNREFUSED/)
    expect(result.stderr).toContain('`npm run serve`')
    expect(result.stderr).not.toMatch(/\n\s+at /)
  })
})
