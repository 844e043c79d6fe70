/** Limits and defaults of the service interface (shared/spec/service-interface.md), named once. */

export const TENANT_LIMITS = {
  nameLength: { min: 1, max: 255 },
  billingPlanLength: { min: 1, max: 100 },
  maxConcurrentCalls: { min: 1, max: 1000, default: 10 },
  monthlyCallLimit: { min: 0, default: 1000 },
  retentionDaysDefault: 90,
  webhookTimeoutSecondsDefault: 20,
  recordingFormatDefault: 'mp4',
} as const

export const SESSIONS_PAGE = { limitMin: 1, limitMax: 100, limitDefault: 20, offsetMin: 0 } as const

export const CALL_LOGS_PAGE = { limitMin: 1, limitMax: 1000, limitDefault: 100 } as const

/** Python logging level names, lower-cased: what a FastAPI backend emits. */
export const LOG_LEVELS = ['debug', 'info', 'warning', 'error', 'critical'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

/** Log types the demo data and the console know; the store accepts any text of 1 to 100 characters. */
export const KNOWN_LOG_TYPES = [
  'call',
  'sip',
  'stt',
  'llm',
  'tts',
  'tool',
  'transfer',
  'webhook',
  'system',
] as const

export const TENANT_STATUSES = ['active', 'trial', 'suspended', 'cancelled'] as const
export const AGENT_STATUSES = ['active', 'inactive', 'draft', 'archived'] as const
export const CONVERSATION_STATUSES = ['active', 'completed', 'transferred', 'abandoned', 'failed'] as const
export const CHANNELS = ['voice', 'chat'] as const
export const MESSAGE_ROLES = ['system', 'user', 'assistant', 'tool'] as const
export const ROUTING_STRATEGIES = [
  'round_robin',
  'least_busy',
  'skills_based',
  'language_match',
  'priority',
] as const
export const SQUAD_MEMBER_ROLES = ['lead', 'member', 'overflow'] as const
export const TRANSFER_REASONS = [
  'language',
  'escalation',
  'skill',
  'overflow',
  'customer_request',
  'after_hours',
] as const
export const TRANSFER_OUTCOMES = ['success', 'failed'] as const
export const CALL_DIRECTIONS = ['inbound', 'outbound'] as const
export const CALL_STATUSES = ['completed', 'failed', 'no_answer', 'busy', 'in_progress'] as const
export const TOKEN_ROLES = ['admin', 'viewer', 'tenant'] as const
export type TokenRole = (typeof TOKEN_ROLES)[number]
export const PROVIDER_KINDS = ['llm', 'stt', 'tts'] as const

export const DEFAULT_HTTP_PORT = 8787
export const DEFAULT_HTTP_HOST = '127.0.0.1'
