// `npm start`: the desktop app (built by electron-vite, with better-sqlite3 built for Electron).
// Electron's binary is fetched here on first start (install skips it, see electron-fetch.mjs); when it
// cannot be, the message says why and what to do instead of a stack trace.
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { prepareElectronBinding } from './electron-binding.mjs'
import { ensureElectron } from './electron-fetch.mjs'

const require = createRequire(import.meta.url)
let electronBinary
try {
  electronBinary = await ensureElectron(dirname(require.resolve('electron/package.json')))
} catch (error) {
  console.error(`callscope: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}
const root = join(import.meta.dirname, '..')
let nativeBinding
try {
  nativeBinding = prepareElectronBinding(root)
} catch (error) {
  console.error(`callscope: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}
const bin = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'electron-vite.cmd' : 'electron-vite')
const result = spawnSync(bin, ['preview'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, ELECTRON_EXEC_PATH: electronBinary, CALLSCOPE_NATIVE_BINDING: nativeBinding },
})
process.exit(result.status ?? 1)
