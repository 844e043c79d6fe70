import Database from 'better-sqlite3'

export interface Scenario {
  name: string
  /** Path and query sent to the server. */
  path: string
  /** The SQL the service runs for it, with its parameters: the floor. */
  sql: string
  params: unknown[]
}

/** The cases of the REST benchmark, built against the dataset so ids and dates are real. */
export function scenarios(dbPath: string): Scenario[] {
  const db = new Database(dbPath, { readonly: true })
  try {
    const agent = db.prepare('select agent_id from call_logs where agent_id is not null group by agent_id order by count(*) desc limit 1').pluck().get() as string
    const start = '2026-11-06T00:00:00.000Z'
    const end = '2026-11-13T23:59:59.999Z'
    return [
      {
        name: 'call logs, agent + 7-day range, limit=1000',
        path: `/logs/calls?limit=1000&start_date=2026-11-06&end_date=2026-11-13&agent_id=${agent}`,
        sql: 'select * from call_logs where timestamp >= ? and timestamp <= ? and agent_id = ? order by timestamp desc, seq desc limit 1000',
        params: [start, end, agent],
      },
      {
        name: 'call logs, unfiltered, limit=100',
        path: '/logs/calls?limit=100',
        sql: 'select * from call_logs order by timestamp desc, seq desc limit 100',
        params: [],
      },
      {
        name: 'agent sessions, first page (20)',
        path: `/agents/${agent}/sessions`,
        sql: `select c.id, c.created_at, c.updated_at,
          (select count(*) from messages m where m.conversation_id = c.id) as message_count,
          (select content from messages m where m.conversation_id = c.id and m.content <> '' order by position desc limit 1) as last_message,
          (select count(*) from conversations where agent_id = ?) as total
          from conversations c where c.agent_id = ? order by c.created_at desc, c.id desc limit 20 offset 0`,
        params: [agent, agent],
      },
    ]
  } finally {
    db.close()
  }
}
