import type { TestServer } from './test-server'

/** An answer as sent: status, content type and the body's exact text (the byte-for-byte parity tests of test/pg/). */
export interface RawAnswer {
  status: number
  type: string | null
  body: string
}

export async function rawAnswer(server: TestServer, path: string, init: RequestInit = {}): Promise<RawAnswer> {
  const response = await server.get(path, init)
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() }
}
