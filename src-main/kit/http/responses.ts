import { httpErrorSchema, httpValidationErrorSchema } from '../../../src-shared/schemas/errors'

const json = <T>(schema: T) => ({ 'application/json': { schema } })

/** The error responses every operation documents: 401, 422 and, by flag, 403, 404 and 409. */
export function standardResponses(options: { notFound?: boolean; forbidden?: boolean; conflict?: boolean } = {}) {
  return {
    401: { description: 'Missing, invalid, revoked or expired bearer token', content: json(httpErrorSchema) },
    ...(options.forbidden
      ? { 403: { description: 'The token lacks the admin role', content: json(httpErrorSchema) } }
      : {}),
    ...(options.notFound
      ? { 404: { description: 'No such resource visible to this token', content: json(httpErrorSchema) } }
      : {}),
    ...(options.conflict
      ? { 409: { description: 'Clashes with what the store holds (a name another record has)', content: json(httpErrorSchema) } }
      : {}),
    422: { description: 'Validation Error', content: json(httpValidationErrorSchema) },
  } as const
}
