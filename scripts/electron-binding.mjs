// better-sqlite3 for Electron: the package's own build targets Node (the tests and `serve` use it);
// the desktop app needs one compiled against Electron's ABI. This builds that second copy once per
// Electron version, platform and architecture into build/electron-binding/, and the main process
// loads it through better-sqlite3's `nativeBinding` option (CALLSCOPE_NATIVE_BINDING).
// Packaged apps do not need it: electron-builder rebuilds node_modules for Electron.
import { spawnSync } from 'node:child_process'
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/** Where the Electron build of the binding lives, and how to make it when it is not there yet. */
export function bindingPlan({ root, electronVersion, platform, arch, nodeGyp, exists = existsSync }) {
  const dir = join(root, 'build', 'electron-binding', `electron-${electronVersion}-${platform}-${arch}`)
  const binding = join(dir, 'better_sqlite3.node')
  if (exists(binding)) return { binding, build: null }
  const source = join(dir, 'better-sqlite3')
  return {
    binding,
    build: {
      source,
      command: process.execPath,
      args: [
        nodeGyp, 'rebuild', '--release', '--runtime=electron', `--target=${electronVersion}`, `--arch=${arch}`,
        '--dist-url=https://electronjs.org/headers',
      ],
      output: join(source, 'build', 'Release', 'better_sqlite3.node'),
    },
  }
}

/** node-gyp as shipped with npm (next to the node binary running this script). */
export function findNodeGyp() {
  const candidates = [
    join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
    join(dirname(process.execPath), 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  ]
  return candidates.find((c) => existsSync(c)) ?? 'node-gyp'
}

/** Builds the binding if needed; returns its path. Throws with the build's output on failure. */
export function prepareElectronBinding(root) {
  const require = createRequire(join(root, 'package.json'))
  const electronVersion = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version
  const plan = bindingPlan({ root, electronVersion, platform: process.platform, arch: process.arch, nodeGyp: findNodeGyp() })
  if (!plan.build) return plan.binding
  console.log(`callscope: building better-sqlite3 for Electron ${electronVersion} (once; about a minute)…`)
  rmSync(plan.build.source, { recursive: true, force: true })
  mkdirSync(plan.build.source, { recursive: true })
  const packageDir = dirname(require.resolve('better-sqlite3/package.json'))
  for (const entry of ['binding.gyp', 'src', 'deps', 'package.json']) cpSync(join(packageDir, entry), join(plan.build.source, entry), { recursive: true })
  const result = spawnSync(plan.build.command, plan.build.args, { cwd: plan.build.source, stdio: 'inherit' })
  if (result.status !== 0 || !existsSync(plan.build.output)) {
    throw new Error('could not build better-sqlite3 for Electron (node-gyp needs Electron headers from electronjs.org and a C++ toolchain)')
  }
  copyFileSync(plan.build.output, plan.binding)
  rmSync(plan.build.source, { recursive: true, force: true })
  return plan.binding
}
