/**
 * `npm run bench:responsiveness`: the "## Responsiveness" section alone (bench/responsiveness-section.ts),
 * on the large dataset `npm run bench` seeds; bench/run.ts keeps the section when it does not rewrite it.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { withSection } from './report-sections'
import { responsivenessSection } from './responsiveness-section'

const root = join(import.meta.dirname, '..')
const dataDir = join(root, '.bench-data')
const dbPath = join(dataDir, 'large.sqlite')

if (!existsSync(dbPath)) throw new Error(`${dbPath} is missing: run npm run bench first`)
const section = await responsivenessSection(dbPath, dataDir, 'bench-token')
const reportPath = join(root, 'docs', 'benchmarks.md')
writeFileSync(reportPath, withSection(readFileSync(reportPath, 'utf8'), '## Responsiveness', section))
console.log(section)
