// Builds the console (electron-vite build) when out/ is missing or older than the sources,
// so `npm run serve` always serves the console that matches the code.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

const root = join(import.meta.dirname, '..')
const target = join(root, 'out', 'renderer', 'index.html')
const sources = ['src-renderer', 'src-shared', 'electron.vite.config.ts', 'package.json']

function newest(path) {
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))))
}

const built = existsSync(target) ? statSync(target).mtimeMs : 0
const changed = Math.max(...sources.map((s) => join(root, s)).filter(existsSync).map(newest))
if (built >= changed) process.exit(0)

const bin = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'electron-vite.cmd' : 'electron-vite')
if (!existsSync(bin)) {
  console.warn('Console build skipped: electron-vite is not installed (install dev dependencies to build it).')
  process.exit(0)
}
console.log('Building the console…')
const result = spawnSync(bin, ['build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
process.exit(result.status ?? 1)
