import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { writeDemoTemplate } from './helpers/demo-template'

/**
 * Seeds the demo database once per run and provides its path (`inject('demoTemplate')`) to every
 * test file; startTestServer copies it instead of seeding its own. Listed by each project that
 * starts test servers: the first of them to run this seeds, the others find the path already
 * provided (the run's root context, which every project inherits), so a run seeds once however
 * many of those projects it holds. The owner removes the file when the run ends.
 */
export default async function setup(project: TestProject) {
  if (project.vitest.getProvidedContext().demoTemplate) return
  const dir = mkdtempSync(join(tmpdir(), 'callscope-template-'))
  try {
    project.vitest.provide('demoTemplate', await writeDemoTemplate(dir))
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
  return () => rmSync(dir, { recursive: true, force: true })
}
