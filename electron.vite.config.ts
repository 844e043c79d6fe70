import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import react from '@vitejs/plugin-react'
import type { Plugin } from 'vite'
import { CONTENT_SECURITY_POLICY } from './src-main/desktop/content-security-policy'

/** The CSP goes into the built page only: the dev server's hot reload needs inline scripts. */
const contentSecurityPolicy = (): Plugin => ({
  name: 'callscope-content-security-policy',
  apply: 'build',
  transformIndexHtml: (html) =>
    html.replace('<meta charset="UTF-8" />', `<meta charset="UTF-8" />\n    <meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}" />`),
})

// Main and preload are bundled for Electron; dependencies stay external (electron-vite's default),
// so better-sqlite3's native binding is loaded from node_modules at run time.
export default defineConfig({
  main: {
    build: {
      rollupOptions: {
        input: {
          index: resolve(import.meta.dirname, 'src-main/index.ts'),
          // A worker thread's entry: parse-in-worker.ts starts it from next to the bundle.
          'parse-worker': resolve(import.meta.dirname, 'src-main/modules/imports/parse-worker.ts'),
          // A pull's fetch worker (modules/pull/windows-in-worker.ts), for the same reason.
          'fetch-worker': resolve(import.meta.dirname, 'src-main/modules/pull/fetch-worker.ts'),
          // The read pool's worker (db/read-pool.ts): its own entry for the same reason.
          'read-worker': resolve(import.meta.dirname, 'src-main/db/read-worker.mjs'),
          // The writer thread (db/writer-thread.ts, started from service.ts with writer/writer-entry.ts).
          'writer-worker': resolve(import.meta.dirname, 'src-main/writer/writer-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      // Sandboxed preloads cannot be ES modules.
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'src-main/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    // Relative asset URLs work from file:// (desktop) and from /console/ (headless) alike.
    base: './',
    root: resolve(import.meta.dirname, 'src-renderer'),
    build: {
      rollupOptions: { input: resolve(import.meta.dirname, 'src-renderer/index.html') },
      // electron-vite leaves bundles unminified; the console is also served to browsers, and a
      // third of the bytes parses in a third of the time on first load.
      minify: true,
    },
    plugins: [react(), contentSecurityPolicy()],
  },
})
