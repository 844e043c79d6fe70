// `npm start`: the desktop app (built by electron-vite, with better-sqlite3 built for Electron). Fails with a clear message where Electron's binary is missing
// (installs made with ELECTRON_SKIP_BINARY_DOWNLOAD=1, such as CI), instead of a stack trace.
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { prepareElectronBinding } from './electron-binding.mjs'

const require = createRequire(import.meta.url)
let electronBinary
try {
  electronBinary = require('electron')
} catch (error) {
  console.error(
    'callscope: the Electron binary is not installed, so the desktop app cannot start here.\n' +
      '  Install it with `npm install` on a machine that can download Electron (without ELECTRON_SKIP_BINARY_DOWNLOAD),\n' +
      '  or run the same service and console headless: `npm run serve`.\n' +
      `  (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
  )
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
