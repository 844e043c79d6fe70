import Database from 'better-sqlite3'
import type { Scenario } from './scenarios'

export interface Floor {
  medianMs: number
  runs: number
}

/** Median time of the scenario's SQL on better-sqlite3 directly: what no server can beat. */
export function floorOf(dbPath: string, scenario: Scenario, budgetMs = 2000): Floor {
  const db = new Database(dbPath, { readonly: true })
  try {
    const statement = db.prepare(scenario.sql)
    for (let i = 0; i < 5; i++) statement.all(...scenario.params)
    const times: number[] = []
    const started = performance.now()
    while (performance.now() - started < budgetMs || times.length < 20) {
      const t0 = performance.now()
      statement.all(...scenario.params)
      times.push(performance.now() - t0)
    }
    times.sort((a, b) => a - b)
    return { medianMs: times[Math.floor(times.length / 2)]!, runs: times.length }
  } finally {
    db.close()
  }
}
