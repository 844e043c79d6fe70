// Writes test/generated/openapi.ts: the typed client's types, from the document the server serves.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { apiTypesSource } from '../test/helpers/api-types'
import { servedOpenApiDocument } from '../test/helpers/openapi-document'

const target = join(import.meta.dirname, '..', 'test', 'generated', 'openapi.ts')
writeFileSync(target, await apiTypesSource(await servedOpenApiDocument()))
console.log(`Wrote ${target}`)
