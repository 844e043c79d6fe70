import type { Hono } from 'hono'

/**
 * The methods registered for a path, so an unmatched request can be told 405 (with `Allow`)
 * instead of 404 when the path exists under another method.
 */
export function allowedMethods(app: Hono<any>, path: string): string[] {
  const methods = new Set<string>()
  for (const route of app.routes) {
    if (route.method === 'ALL') continue
    const pattern = new RegExp(`^${route.path.replace(/\/\*$/, '/.*').replace(/:[^/]+/g, '[^/]+')}$`)
    if (pattern.test(path)) methods.add(route.method)
  }
  if (methods.has('GET')) methods.add('HEAD')
  return [...methods].sort()
}
