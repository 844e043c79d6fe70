/**
 * The console's tRPC channel over HTTP, as a test beside the browser calls it: a query (GET with
 * the input in the URL) or a mutation (POST), with a bearer token; resolves with the result's data.
 */
export interface TrpcHttp {
  query<T>(path: string, input?: unknown, token?: string): Promise<T>
  mutation<T>(path: string, input: unknown, token?: string): Promise<T>
}

export function trpcHttp(baseUrl: () => string, defaultToken: () => string): TrpcHttp {
  const read = async <T>(response: Response): Promise<T> => {
    if (!response.ok) throw new Error(`${new URL(response.url).pathname} answered ${response.status}: ${await response.text()}`)
    return ((await response.json()) as { result: { data: T } }).result.data
  }
  return {
    async query<T>(path: string, input?: unknown, token = defaultToken()) {
      const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`
      return read<T>(await fetch(`${baseUrl()}/trpc/${path}${query}`, { headers: { Authorization: `Bearer ${token}` } }))
    },
    async mutation<T>(path: string, input: unknown, token = defaultToken()) {
      const response = await fetch(`${baseUrl()}/trpc/${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(input),
      })
      return read<T>(response)
    },
  }
}
