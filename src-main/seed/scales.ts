export interface SeedScale {
  tenants: number
  agentsPerTenant: number
  squadsPerTenant: number
  /** Conversations are generated until the call log count reaches this. */
  targetLogs: number
  /** Days of history before the anchor. */
  days: number
}

export const SEED_SCALES = {
  small: { tenants: 3, agentsPerTenant: 5, squadsPerTenant: 1, targetLogs: 20_000, days: 35 },
  medium: { tenants: 5, agentsPerTenant: 8, squadsPerTenant: 2, targetLogs: 150_000, days: 35 },
  large: { tenants: 8, agentsPerTenant: 15, squadsPerTenant: 2, targetLogs: 1_000_000, days: 35 },
  // A team server's history (issue 20's scale benchmark): every company and persona of the corpus,
  // four months at three times large's daily traffic. About 14 GB as a SQLite file.
  team: { tenants: 10, agentsPerTenant: 16, squadsPerTenant: 2, targetLogs: 10_000_000, days: 120 },
} as const satisfies Record<string, SeedScale>

export type SeedScaleName = keyof typeof SEED_SCALES
export const SEED_SCALE_NAMES = Object.keys(SEED_SCALES) as SeedScaleName[]
