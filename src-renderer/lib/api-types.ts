import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server'
import type { PULLED_KINDS } from '../../src-shared/schemas/pull'
import type { AppRouter } from './trpc'

/**
 * The renderer's names for what the API takes and answers. They are inferred from the router
 * (as the wire carries them, after JSON), so a change in a service's answer shows up here as a
 * type error instead of a hand-kept copy silently going stale.
 */
export type RouterOutputs = inferRouterOutputs<AppRouter>
export type RouterInputs = inferRouterInputs<AppRouter>

/** An import's record: the history's rows and what the upload route answers. */
export type ImportReport = RouterOutputs['imports']['list'][number]
export type PullReport = RouterOutputs['pulls']['list'][number]
/** A kind of document a pull keeps as JSON; the constant is shared, so no inference is needed. */
export type PulledKind = (typeof PULLED_KINDS)[number]

/** A row of the call log table. */
export type CallLogLine = RouterOutputs['callLogs']['search']['rows'][number]
export type CallLogFacets = RouterOutputs['callLogs']['facets']
/** How many lines of the filter have one level or one type. */
export type FacetCount = CallLogFacets['levels'][number]
export type CallLogHistogram = RouterOutputs['callLogs']['histogram']
/** A line with its neighbours in the same call or trace, and where it came from. */
export type CallLogContext = RouterOutputs['callLogs']['context']
/** The import or pull that brought a line in; null for seeded and local records. */
export type CallLogOrigin = CallLogContext['origin']

/** One message of a conversation's transcript, tool arguments and results parsed. */
export type TranscriptMessage = RouterOutputs['conversations']['get']['messages'][number]

/** A provider of the shipped STT catalog, with its model ids and names. */
export type SttCatalogEntry = RouterOutputs['providers']['catalog']['stt'][number]
/** Where a pulled squad's analytics came from and the period they cover. */
export type PulledAnalyticsMark = NonNullable<RouterOutputs['squads']['analytics']['pulled']>

/** One call's page: header, lines, spans, turns, transcript, transfers (calls.get). */
export type CallDetail = RouterOutputs['calls']['get']
export type CallSpan = CallDetail['spans'][number]
export type CallTurn = CallDetail['turns'][number]
export type CallLine = CallDetail['lines'][number]
export type CallMessage = CallDetail['transcript'][number]

/** A webhook test-send or replay, as the delivery log lists it; with its body and attempts. */
export type WebhookDelivery = RouterOutputs['webhooks']['deliveries']['deliveries'][number]
export type WebhookDeliveryDetail = RouterOutputs['webhooks']['delivery']
export type WebhookAttempt = WebhookDeliveryDetail['attempts'][number]
/** A request the tenant's inbox received, accepted or rejected. */
export type WebhookInboxEvent = RouterOutputs['webhooks']['inbox']['events'][number]
