import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/**
 * Where the writer thread's code is: writer-worker.source.mjs beside this module when running from
 * the TypeScript sources (it registers tsx in the thread), out/main/writer-worker.js in the
 * electron-vite bundle (a build input of its own, next to index.js). Null when neither is there.
 */
export function writerEntry(): URL | null {
  const fromSource = import.meta.url.endsWith('.ts')
  const url = new URL(fromSource ? './writer-worker.source.mjs' : './writer-worker.js', import.meta.url)
  return url.protocol === 'file:' && existsSync(fileURLToPath(url)) ? url : null
}
