import { defineConfig } from 'vitest/config'

/** Every project runs in Node (renderer tests that need a DOM say `// @vitest-environment happy-dom`), in forks. */
const common = {
  environment: 'node',
  pool: 'forks',
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // expect.poll waits for a state the page or server reaches by itself; 1 s (vitest's default) is
  // too short on a loaded 2-core CI machine, where a page's first render alone can take that long.
  expect: { poll: { timeout: 10_000, interval: 50 } },
}

/** Seeds the demo database once per run for the projects whose tests start test servers. */
const demoTemplate = ['test/global-setup.ts']
/** The demo template, then one throwaway PostgreSQL cluster for the run with template databases (issue 20). */
const withPostgres = [...demoTemplate, 'test/pg-global-setup.ts']

/**
 * `vitest run` runs every project; `vitest run --project <name>` (npm run test:<name>) one of them.
 * unit: modules, shared code and renderer pieces on their own, in-process.
 * http: the service behind the real listener (REST, tRPC, auth, OpenAPI, `serve`).
 * integration: the CLI, pulls against a live backend, packaging and the Electron binding.
 * e2e: the built console in Chromium (needs `electron-vite build` first).
 * pg: the service on PostgreSQL (a throwaway cluster: Debian's postgresql package), and its
 *     parity with SQLite over the real listener.
 */
export default defineConfig({
  test: {
    projects: [
      { test: { ...common, name: 'unit', include: ['src-main/**/*.test.ts', 'src-shared/**/*.test.ts', 'src-renderer/**/*.test.{ts,tsx}'] } },
      { test: { ...common, name: 'http', include: ['test/http/**/*.test.ts'], globalSetup: demoTemplate } },
      { test: { ...common, name: 'integration', include: ['test/integration/**/*.test.ts'], globalSetup: demoTemplate } },
      { test: { ...common, name: 'e2e', include: ['test/e2e/**/*.test.ts'], globalSetup: demoTemplate } },
      { test: { ...common, name: 'pg', include: ['test/pg/**/*.test.ts'], globalSetup: withPostgres } },
    ],
  },
})
