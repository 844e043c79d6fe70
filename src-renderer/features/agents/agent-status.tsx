import { Badge } from '@mantine/core'

const AGENT: Record<string, string> = { active: 'green', inactive: 'gray', draft: 'blue', archived: 'orange' }
const SESSION: Record<string, string> = { active: 'blue', completed: 'green', transferred: 'violet', abandoned: 'orange', failed: 'red' }

export const AgentStatusBadge = ({ status }: { status: string }) => <Badge color={AGENT[status] ?? 'gray'}>{status}</Badge>

export const SessionStatusBadge = ({ status }: { status: string }) => <Badge color={SESSION[status] ?? 'gray'}>{status}</Badge>

/** "provider / model", the model dimmed-free but wrapped as one unit. */
export const providerModel = (provider: string, model: string) => `${provider} · ${model}`
