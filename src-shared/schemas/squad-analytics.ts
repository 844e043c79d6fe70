import { CHANNELS, ROUTING_STRATEGIES, SQUAD_MEMBER_ROLES, TRANSFER_REASONS } from '../constants'
import { endNotBeforeStart, idParam, instantParam } from './params'
import { z } from './zod'

/**
 * `GET /squads/{squad_id}/analytics`: transfer statistics, member utilization, routing strategy
 * performance and session distribution of one squad over a period. Definitions: docs/api.md,
 * "Squad analytics". Counts are integers; rates are 0..1 with 4 decimals; durations are whole
 * milliseconds; nothing is ever null or NaN: what has nothing to measure is 0.
 */

/** Days a period covers when no start_date is given. */
export const SQUAD_ANALYTICS_DEFAULT_DAYS = 30

const count = (description: string) => z.number().int().min(0).openapi({ description })
const rate = (description: string) => z.number().min(0).max(1).openapi({ description })
const ms = (description: string) => z.number().int().min(0).openapi({ description })
// Agent and squad ids have no format in the spec: a mirror serves a real backend's own (issue 15).
const agentId = (description = 'Agent id') => z.string().openapi({ description })
const agentName = z.string().openapi({ description: 'Agent name' })

const periodSchema = z
  .object({
    start: z.string().openapi({ format: 'date-time', description: 'First instant included (UTC)' }),
    end: z.string().openapi({ format: 'date-time', description: 'Last instant included (UTC)' }),
    hours: z.number().min(0).openapi({ description: 'Length of the period in hours (3 decimals); the base of utilization' }),
  })
  .openapi('SquadAnalyticsPeriod', { description: 'The period analysed. Both bounds are inclusive.' })

const transferReasonSchema = z
  .object({
    reason: z.enum(TRANSFER_REASONS),
    count: count('Transfers with this reason'),
    successful: count('Of them, successful'),
    failed: count('Of them, failed'),
    success_rate: rate('successful / count'),
  })
  .openapi('TransferReasonStatistics')

const transferMatrixCellSchema = z
  .object({
    from_agent_id: agentId('Agent that handed the session over'),
    from_agent_name: agentName,
    to_agent_id: agentId('Agent that was asked to take it'),
    to_agent_name: agentName,
    count: count('Transfers from this agent to that one'),
    successful: count('Of them, successful'),
    failed: count('Of them, failed'),
  })
  .openapi('TransferMatrixCell')

const transferStatisticsSchema = z
  .object({
    total: count('Transfers requested in the period (by requested_at)'),
    successful: count('Transfers whose outcome is success'),
    failed: count('Transfers whose outcome is failed'),
    success_rate: rate('successful / total; 0 when there were no transfers'),
    mean_time_to_transfer_ms: ms(
      'Mean latency_ms (request until the receiving agent took over) of the successful transfers; 0 when there were none',
    ),
    p90_time_to_transfer_ms: ms(
      '90th percentile, nearest-rank, of the successful transfers\' latency_ms: the value at rank ceil(0.9 × n) in ascending order; 0 when there were none',
    ),
    by_reason: z
      .array(transferReasonSchema)
      .openapi({ description: 'Reasons that occurred, most frequent first' }),
    matrix: z
      .array(transferMatrixCellSchema)
      .openapi({ description: 'Who handed over to whom: one cell per (from, to) pair that occurred, most frequent first' }),
  })
  .openapi('TransferStatistics')

const memberUtilizationSchema = z
  .object({
    agent_id: agentId(),
    agent_name: agentName,
    role: z.enum(SQUAD_MEMBER_ROLES),
    priority: z.number().int().min(0).openapi({ description: 'Routing priority in the squad (0 first)' }),
    sessions_handled: count("The squad's sessions created in the period that this agent handled"),
    ended_sessions: count('Of them, sessions that have ended (ongoing ones add no handle time)'),
    total_handle_time_ms: ms('Sum of ended_at − created_at over the ended sessions'),
    mean_handle_time_ms: ms('total_handle_time_ms / ended_sessions; 0 when none ended'),
    utilization_pct: z
      .number()
      .min(0)
      .openapi({
        description:
          'total_handle_time_ms / period length × 100, 2 decimals. Not capped: concurrent sessions (chat) can take it above 100',
      }),
    transfers_in: count("The squad's transfers in the period to this agent"),
    transfers_out: count("The squad's transfers in the period from this agent"),
  })
  .openapi('MemberUtilization')

const routingStrategyPerformanceSchema = z
  .object({
    strategy: z
      .enum(ROUTING_STRATEGIES)
      .nullable()
      .openapi({ description: 'Routing strategy that routed these sessions; null for sessions stored without one' }),
    is_current: z.boolean().openapi({ description: "Whether this is the squad's routing strategy now" }),
    sessions: count('Sessions routed with this strategy'),
    mean_wait_ms: ms('Mean wait_ms (caller waiting until an agent picked up) over the sessions that record one; 0 when none do'),
    resolution_rate: rate('Resolved sessions / sessions with a known outcome (ongoing ones are left out); 0 when none'),
    transfer_rate: rate('Sessions whose status is transferred / sessions'),
  })
  .openapi('RoutingStrategyPerformance')

const sessionDistributionSchema = z
  .object({
    total_sessions: count("The squad's sessions created in the period"),
    by_member: z
      .array(z.object({ agent_id: agentId(), agent_name: agentName, sessions: count('Sessions this agent handled') }).openapi('MemberSessionCount'))
      .openapi({
        description:
          'Every current member (zeros included), plus any other agent that handled sessions of the squad in the period; most sessions first. Sums to total_sessions',
      }),
    by_hour: z
      .array(z.object({ hour: z.number().int().min(0).max(23), sessions: count('Sessions created in this hour of the day') }).openapi('HourOfDaySessionCount'))
      .openapi({ description: 'Always 24 buckets, hour 0 to 23 of the day in UTC, summed over the days of the period' }),
    by_day: z
      .array(
        z
          .object({
            date: z.string().openapi({ format: 'date', description: 'UTC day, YYYY-MM-DD' }),
            sessions: count('Sessions created on this day (within the period)'),
          })
          .openapi('DaySessionCount'),
      )
      .openapi({ description: 'Every UTC day the period touches, oldest first, zeros included' }),
    by_language: z
      .array(z.object({ language: z.string(), sessions: count('Sessions in this language') }).openapi('LanguageSessionCount'))
      .openapi({ description: 'Languages that occurred, most sessions first' }),
    by_channel: z
      .array(z.object({ channel: z.enum(CHANNELS), sessions: count('Sessions on this channel') }).openapi('ChannelSessionCount'))
      .openapi({ description: 'Channels that occurred, most sessions first' }),
  })
  .openapi('SessionDistribution')

export const squadAnalyticsSchema = z
  .object({
    squad_id: z.string(),
    squad_name: z.string(),
    tenant_id: z.uuid(),
    routing_strategy: z.enum(ROUTING_STRATEGIES).openapi({ description: "The squad's routing strategy now" }),
    period: periodSchema,
    transfer_statistics: transferStatisticsSchema,
    member_utilization: z
      .array(memberUtilizationSchema)
      .openapi({ description: 'Every current member, zeros included, by priority then name' }),
    routing_strategy_performance: z
      .array(routingStrategyPerformanceSchema)
      .openapi({ description: 'One entry per strategy that routed sessions of the squad in the period, most sessions first' }),
    session_distribution: sessionDistributionSchema,
  })
  .openapi('SquadAnalytics', {
    description:
      'Analytics of one squad over a period. Sessions belong to the period by created_at, transfers by requested_at.',
  })

const dateRange = {
  start_date: instantParam(
    `Start of the period: a date or date-time (UTC when no offset is given). Default: ${SQUAD_ANALYTICS_DEFAULT_DAYS} days before end_date`,
  ),
  end_date: instantParam('End of the period, inclusive; a bare date includes that whole day. Default: now', true),
}

export const squadAnalyticsQuerySchema = z.object(dateRange).superRefine(endNotBeforeStart)

/** The tRPC input: the REST query plus the path's squad id. */
export const squadAnalyticsInputSchema = z
  .object({ squadId: idParam('Squad id'), ...dateRange })
  .superRefine(endNotBeforeStart)

export type SquadAnalytics = z.infer<typeof squadAnalyticsSchema>
export type SquadAnalyticsQuery = z.output<typeof squadAnalyticsQuerySchema>
export type TransferStatistics = z.infer<typeof transferStatisticsSchema>
export type MemberUtilization = z.infer<typeof memberUtilizationSchema>
export type RoutingStrategyPerformance = z.infer<typeof routingStrategyPerformanceSchema>
export type SessionDistribution = z.infer<typeof sessionDistributionSchema>
