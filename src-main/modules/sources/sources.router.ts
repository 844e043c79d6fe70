import { sourcesAnswerSchema } from '../../../src-shared/schemas/sources'
import { procedure, router } from '../../kit/trpc'
import { LOCAL_SOURCE, type SourcesService } from './sources.service'

const nameOf = (key: string) => (key === '' ? LOCAL_SOURCE : key)

export const sourcesRouter = (sources: SourcesService) =>
  router({
    /** The store's sources for the console's picker, and the one this call was limited to. */
    list: procedure.output(sourcesAnswerSchema).query(async ({ ctx }) => {
      const listed = await sources.list()
      const { source } = ctx.principal
      return {
        sources: listed.map(({ name, kind, firstPullAt, lastPullAt }) => ({ name, kind, firstPullAt, lastPullAt })),
        current: source === undefined ? null : nameOf(source),
        bound: ctx.principal.sourceBound === true,
      }
    }),
  })
