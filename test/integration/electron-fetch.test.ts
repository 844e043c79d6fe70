import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { crc32 } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM script without types
import { ensureElectron, installedElectron } from '../../scripts/electron-fetch.mjs'

const root = join(import.meta.dirname, '..', '..')
const { version } = JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')) as { version: string }
const cleanups: Array<() => void> = []
afterEach(() => cleanups.splice(0).forEach((f) => f()))

/**
 * A copy of node_modules/electron without its binary, inside the repository (gitignored scratch/) so
 * that install.js still resolves @electron/get from the project's node_modules.
 */
function electronWithoutBinary(): string {
  const dir = join(root, 'scratch', `electron-fetch-${process.pid}-${cleanups.length}`, 'node_modules', 'electron')
  mkdirSync(dir, { recursive: true })
  for (const entry of readdirSync(join(root, 'node_modules/electron'))) {
    if (entry === 'dist' || entry === 'path.txt') continue
    if (entry === 'node_modules') symlinkSync(join(root, 'node_modules/electron/node_modules'), join(dir, entry))
    else cpSync(join(root, 'node_modules/electron', entry), join(dir, entry), { recursive: true })
  }
  cleanups.push(() => rmSync(join(dir, '..', '..'), { recursive: true, force: true }))
  return dir
}

/** A zip archive with stored (uncompressed) entries: enough to stand in for Electron's release zip. */
function storedZip(files: Record<string, string>): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const [name, text] of Object.entries(files)) {
    const data = Buffer.from(text)
    const nameBytes = Buffer.from(name)
    const crc = crc32(data)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0); local.writeUInt16LE(20, 4); local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(data.length, 18); local.writeUInt32LE(data.length, 22); local.writeUInt16LE(nameBytes.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0); central.writeUInt16LE(0x031e, 4); central.writeUInt16LE(20, 6)
    central.writeUInt32LE(crc, 16); central.writeUInt32LE(data.length, 20); central.writeUInt32LE(data.length, 24)
    central.writeUInt16LE(nameBytes.length, 28); central.writeUInt32LE((0o100755 << 16) >>> 0, 38); central.writeUInt32LE(offset, 42)
    locals.push(local, nameBytes, data)
    centrals.push(central, nameBytes)
    offset += local.length + nameBytes.length + data.length
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(centrals.length / 2, 8); end.writeUInt16LE(centrals.length / 2, 10)
  end.writeUInt32LE(centralSize, 12); end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, ...centrals, end])
}

/** Stands in for Electron's release host: serves the zip and its SHASUMS256.txt, records requests. */
async function releaseMirror(zipName: string, zip: Buffer): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = []
  const sha = createHash('sha256').update(zip).digest('hex')
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '')
    if (req.url?.endsWith(`/${zipName}`)) return res.end(zip)
    if (req.url?.endsWith('/SHASUMS256.txt')) return res.end(`${sha} *${zipName}\n`)
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanups.push(() => server.close())
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, requests }
}

function envFor(mirror: string, cache: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ELECTRON_MIRROR: mirror,
    electron_use_remote_checksums: '1',
    electron_config_cache: cache,
    // Set by hand on an old install: the fetch must ignore it, since the user asked to start Electron.
    ELECTRON_SKIP_BINARY_DOWNLOAD: '1',
  }
}

describe('Electron fetched on first start', () => {
  it('downloads the binary once when it is missing, then reuses it', async () => {
    const dir = electronWithoutBinary()
    expect(installedElectron(dir)).toBeNull()
    const platform = process.platform === 'darwin' ? 'darwin' : process.platform
    const zipName = `electron-v${version}-${platform}-${process.arch}.zip`
    const mirror = await releaseMirror(zipName, storedZip({ electron: '#!/bin/sh\necho stand-in\n', version: version }))
    const messages: string[] = []
    const env = envFor(mirror.url, join(dir, '..', '..', 'cache'))

    const binary = await ensureElectron(dir, { env, log: (m: string) => messages.push(m) })

    expect(binary).toBe(join(dir, 'dist', 'electron'))
    expect(readFileSync(binary, 'utf8')).toContain('stand-in')
    expect(messages).toEqual([expect.stringContaining(`Electron ${version} is not installed yet; downloading it once from the mirror ${mirror.url}`)])
    expect(mirror.requests.some((u) => u.endsWith(zipName))).toBe(true)
    const seen = mirror.requests.length
    expect(await ensureElectron(dir, { env, log: (m: string) => messages.push(m) })).toBe(binary)
    expect(mirror.requests).toHaveLength(seen)
    expect(messages).toHaveLength(1)
  })

  it('says what failed and what to do when the download host cannot be reached', async () => {
    const dir = electronWithoutBinary()
    const mirror = await releaseMirror('none.zip', Buffer.alloc(0))
    let error: Error | undefined
    try {
      await ensureElectron(dir, { env: envFor(mirror.url, join(dir, '..', '..', 'cache')), log: () => {} })
    } catch (e) {
      error = e as Error
    }
    expect(error?.message).toMatch(new RegExp(`^could not download Electron ${version.replace(/\./g, '\\.')} from the mirror http://127\\.0\\.0\\.1:\\d+/: .*404`))
    expect(error?.message).toContain('npm run serve')
    expect(error?.message).not.toMatch(/\n\s+at /)
    expect(existsSync(join(dir, 'path.txt'))).toBe(false)
  })
})
