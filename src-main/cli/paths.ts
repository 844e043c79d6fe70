import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import envPaths from 'env-paths'

/** Where the headless service keeps its database unless told otherwise: the per-user data folder. */
export function defaultDbPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CALLSCOPE_DB) return resolve(env.CALLSCOPE_DB)
  return join(envPaths('callscope', { suffix: '' }).data, 'callscope.sqlite')
}

/** The package's root folder (holds package.json, resources/ and the built console in out/). */
export const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

export const consoleBuildDir = join(packageRoot, 'out', 'renderer')
