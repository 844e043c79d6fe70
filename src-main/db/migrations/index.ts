import type { Migration } from 'kysely'
import { initial } from './0001-initial'
import { squadAnalytics } from './0002-squad-analytics'
import { callLogSessionIndex } from './0003-call-log-session-index'
import { imports } from './0004-imports'
import { pulls } from './0005-pulls'
import { origins } from './0006-origins'
import { tokenExpiry } from './0007-token-expiry'
import { openLogValues } from './0008-open-log-values'
import { pulledSessions } from './0009-pulled-sessions'
import { pulledAnswers } from './0010-pulled-answers'
import { pullSyncs } from './0011-pull-syncs'
import { callListIndexes } from './0012-call-list-indexes'
import { logQuery } from './0014-log-query'
import { savedViews } from './0015-saved-views'
import { webhooks } from './0016-webhooks'
import { sources } from './0018-sources'
import { detailsIndexes } from './0019-details-indexes'
import { callLogBulkLoads } from './0020-call-log-bulk-loads'
import { importSources } from './0021-import-sources'
import { pulledDefaultAnalytics } from './0022-pulled-default-analytics'

/**
 * Every migration, in order. Listed statically (not read from disk) so the same list works
 * under tsx, in the bundled Electron main process and in tests. Names are never changed once shipped.
 */
export const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-squad-analytics': squadAnalytics,
  '0003-call-log-session-index': callLogSessionIndex,
  '0004-imports': imports,
  '0005-pulls': pulls,
  '0006-origins': origins,
  '0007-token-expiry': tokenExpiry,
  '0008-open-log-values': openLogValues,
  '0009-pulled-sessions': pulledSessions,
  '0010-pulled-answers': pulledAnswers,
  '0011-pull-syncs': pullSyncs,
  '0012-call-list-indexes': callListIndexes,
  '0014-log-query': logQuery,
  '0015-saved-views': savedViews,
  '0016-webhooks': webhooks,
  '0018-sources': sources,
  '0019-details-indexes': detailsIndexes,
  '0020-call-log-bulk-loads': callLogBulkLoads,
  '0021-import-sources': importSources,
  '0022-pulled-default-analytics': pulledDefaultAnalytics,
}
