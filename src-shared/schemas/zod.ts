import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi'
import { z } from 'zod'

// Adds `.openapi()` so the shared schemas carry their OpenAPI names and descriptions themselves;
// the REST layer's document is generated from these same objects.
extendZodWithOpenApi(z)

export { z }
