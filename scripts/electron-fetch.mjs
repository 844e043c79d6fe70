// Electron's binary, fetched on first `npm start` rather than at install time.
// package.json's `allowScripts` denies electron's postinstall, so `npm ci` succeeds on machines that
// cannot reach Electron's download host (CI, air-gapped laptops) and `npm run serve` works there.
// `npm start` then runs the same postinstall (electron/install.js) once, where it can download.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

/** The installed binary's path, or null while electron/install.js has not completed. */
export function installedElectron(electronDir) {
  const pathFile = join(electronDir, 'path.txt')
  if (!existsSync(pathFile)) return null
  const binary = join(electronDir, 'dist', readFileSync(pathFile, 'utf8').trim())
  return existsSync(binary) ? binary : null
}

/** Where the download comes from, for the messages (install.js reads the same variable). */
function downloadSource(env, version) {
  const mirror = env.ELECTRON_MIRROR || env.npm_config_electron_mirror
  return mirror ? `the mirror ${mirror}` : `github.com/electron/electron/releases (v${version})`
}

/** The error line of install.js's output (@electron/get prints a stack trace on failure). */
function failureReason(output) {
  const lines = output.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('at ') && !l.startsWith('Node.js v'))
  return lines.find((l) => /^[A-Za-z]*Error\b/.test(l)) ?? lines.at(-1) ?? 'no output'
}

/**
 * Resolves to the Electron binary, downloading it first when missing. Throws an Error whose message says
 * what failed and what to do next; it never surfaces install.js's stack trace.
 */
export async function ensureElectron(electronDir, { env = process.env, log = console.error } = {}) {
  electronDir = resolve(electronDir)
  const present = installedElectron(electronDir)
  if (present) return present
  const { version } = JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8'))
  log(`callscope: Electron ${version} is not installed yet; downloading it once from ${downloadSource(env, version)}…`)
  const { ELECTRON_SKIP_BINARY_DOWNLOAD: _skip, ...childEnv } = env
  const result = await runInstaller(join(electronDir, 'install.js'), electronDir, childEnv)
  const installed = result.status === 0 ? installedElectron(electronDir) : null
  if (installed) return installed
  const reason = result.error ? result.error.message : failureReason(result.output)
  throw new Error(
    `could not download Electron ${version} from ${downloadSource(env, version)}: ${reason}\n` +
      '  Check the network or proxy (HTTPS_PROXY), or point ELECTRON_MIRROR at a reachable mirror, then run `npm start` again.\n' +
      '  Without Electron, the same service and console run headless: `npm run serve`.',
  )
}

/** Runs electron/install.js as npm would have, collecting its output for the failure message. */
function runInstaller(script, cwd, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: 15 * 60_000 })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('error', (error) => resolve({ status: null, error, output }))
    child.on('close', (status) => resolve({ status, output }))
  })
}
