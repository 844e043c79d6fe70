import { createService } from '../../src-main/service'
import { createHttpApp } from '../../src-main/server/http-app'

/** The OpenAPI document exactly as the listener serves it, from an in-memory store. */
export async function servedOpenApiDocument(): Promise<Record<string, unknown>> {
  const service = await createService({ dbPath: ':memory:', seedNewDatabase: false })
  try {
    const response = await createHttpApp({ service, version: 'docs' }).request('/openapi.json')
    return (await response.json()) as Record<string, unknown>
  } finally {
    await service.close()
  }
}
