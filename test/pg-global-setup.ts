import type { TestProject } from 'vitest/node'
import { startPgCluster } from './helpers/pg-cluster'
import { PG_DEMO_TEMPLATE, PG_EMPTY_TEMPLATE, writePgTemplates } from './helpers/pg-database'

declare module 'vitest' {
  export interface ProvidedContext {
    /** `postgres://postgres@127.0.0.1:<port>` of the run's throwaway cluster (test/helpers/pg-cluster.ts). */
    pgBaseUrl: string
  }
}

/**
 * One throwaway PostgreSQL cluster per run (issue 20), for every project that lists this after
 * test/global-setup.ts: started here, with two template databases (PG_EMPTY_TEMPLATE migrated,
 * PG_DEMO_TEMPLATE with the run's SQLite demo template copied in), and stopped and removed when
 * the run ends, also when it fails. Each test file makes its own databases from the templates
 * (pg-database.ts), so files never share rows and nothing is seeded twice.
 */
export default async function setup(project: TestProject) {
  if (project.vitest.getProvidedContext().pgBaseUrl) return
  const cluster = await startPgCluster()
  try {
    await writePgTemplates(cluster, project.vitest.getProvidedContext().demoTemplate)
    project.vitest.provide('pgBaseUrl', cluster.baseUrl)
  } catch (error) {
    await cluster.stop()
    throw error
  }
  return () => cluster.stop()
}

export { PG_DEMO_TEMPLATE, PG_EMPTY_TEMPLATE }
