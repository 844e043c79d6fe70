import { z } from './zod'

/** FastAPI's validation error body (pydantic v2 shape), as the spec defines it. */
export const validationErrorSchema = z
  .object({
    loc: z.array(z.union([z.string(), z.number().int()])),
    msg: z.string(),
    type: z.string(),
    input: z.unknown().optional(),
    ctx: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi('ValidationError')

export const httpValidationErrorSchema = z
  .object({ detail: z.array(validationErrorSchema).optional() })
  .openapi('HTTPValidationError')

/** Every other error: FastAPI's HTTPException body. */
export const httpErrorSchema = z
  .object({ detail: z.string() })
  .openapi('HTTPError')

export type ValidationError = z.infer<typeof validationErrorSchema>
export type HttpValidationError = z.infer<typeof httpValidationErrorSchema>
