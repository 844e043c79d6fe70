import { ROUTING_STRATEGIES } from '../../src-shared/constants'
import { llmCatalog, sttCatalog, ttsCatalog } from '../modules/providers/catalog'
import { corpus } from './corpus'
import type { Rng } from './rng'
import type { SeedScale } from './scales'

/** The organisation part of the demo data: tenants, agents, squads and SIP trunks, in memory. */

const DAY = 86_400_000

export interface SeedTenant {
  id: string
  name: string
  industry: string
  plan: string
  domain: string
  status: string
  sipEnabled: boolean
  recordingEnabled: boolean
  recordingFormat: string
  retentionDays: number
  webhookUrl: string | null
  webhookTimeoutSeconds: number
  /** Relative share of the traffic. */
  weight: number
  row: Record<string, unknown>
}

export interface SeedAgent {
  id: string
  tenantId: string
  name: string
  firstName: string
  languages: string[]
  llm: { provider: string; model: string; meanLatencyMs: number }
  stt: { provider: string; model: string }
  tts: { provider: string; model: string; voiceId: string }
  active: boolean
  weight: number
  row: Record<string, unknown>
}

export interface SeedSquad {
  id: string
  tenantId: string
  strategy: string
  /** Strategy used before `strategyChangedAt`, when the squad switched during the period. */
  previousStrategy: string | null
  strategyChangedAt: number
  members: SeedAgent[]
  rows: { squad: Record<string, unknown>; members: Record<string, unknown>[] }
}

export interface SeedTrunk {
  id: string
  tenantId: string
  numbers: string[]
  row: Record<string, unknown>
}

export interface Organization {
  tenants: SeedTenant[]
  agents: SeedAgent[]
  squads: SeedSquad[]
  trunks: SeedTrunk[]
}

const PLAN_PROFILE: Record<string, { concurrent: number; weight: number }> = {
  enterprise: { concurrent: 200, weight: 4 },
  growth: { concurrent: 50, weight: 2.5 },
  starter: { concurrent: 10, weight: 1 },
  trial: { concurrent: 5, weight: 0.5 },
}

const LLM_POPULARITY: Record<string, number> = {
  openai: 32, anthropic: 16, google: 14, groq: 10, azure_openai: 10, mistral: 6, deepseek: 6, cerebras: 6,
}
const LLM_LATENCY: Record<string, number> = {
  openai: 620, anthropic: 760, google: 540, groq: 260, azure_openai: 700, mistral: 580, deepseek: 900, cerebras: 220,
}
const STT_POPULARITY: Record<string, number> = {
  deepgram: 34, assemblyai: 14, openai: 10, google: 10, azure: 12, elevenlabs: 6, gladia: 8, speechmatics: 6,
}
const TTS_POPULARITY: Record<string, number> = {
  elevenlabs: 35, cartesia: 20, openai: 12, azure: 15, deepgram: 8, google: 10,
}

const iso = (ms: number) => new Date(ms).toISOString()
const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')

/** The cheapest tool-calling model of a provider: what a latency-sensitive voice agent runs on. */
function voiceModel(rng: Rng, providerId: string): string {
  const provider = llmCatalog.providers.find((p) => p.id === providerId)!
  const candidates = provider.models.filter((m) => m.supports_tools && m.supports_streaming)
  const pool = candidates.length > 0 ? candidates : provider.models
  const cheapest = [...pool].sort((a, b) => a.input_price_per_mtok - b.input_price_per_mtok).slice(0, 3)
  return rng.weighted(cheapest, [3, 2, 1].slice(0, cheapest.length)).id
}

function pickLlm(rng: Rng) {
  const providers = llmCatalog.providers.map((p) => p.id)
  const provider = rng.weighted(providers, providers.map((p) => LLM_POPULARITY[p] ?? 3))
  return { provider, model: voiceModel(rng, provider), meanLatencyMs: LLM_LATENCY[provider] ?? 700 }
}

/** An STT model covering the agent's languages, favouring popular providers. */
function pickStt(rng: Rng, languages: string[]) {
  const options = sttCatalog.providers.flatMap((p) =>
    p.models
      .filter((m) => m.streaming && languages.every((l) => m.languages.includes(l)))
      .map((m) => ({ provider: p.id, model: m.id })),
  )
  const fallback = sttCatalog.providers.flatMap((p) =>
    p.models.filter((m) => m.languages.includes(languages[0]!)).map((m) => ({ provider: p.id, model: m.id })),
  )
  const pool = options.length > 0 ? options : fallback.length > 0 ? fallback : [{ provider: 'deepgram', model: 'nova-3' }]
  return rng.weighted(pool, pool.map((o) => STT_POPULARITY[o.provider] ?? 3))
}

function pickTts(rng: Rng, language: string) {
  const options = ttsCatalog.providers.flatMap((p) =>
    p.models.flatMap((m) =>
      m.voices
        .filter((v) => v.language === language || (m.languages.includes(language) && v.language === 'en'))
        .map((v) => ({ provider: p.id, model: m.id, voiceId: v.id, exact: v.language === language })),
    ),
  )
  const exact = options.filter((o) => o.exact)
  const pool = exact.length > 0 ? exact : options
  if (pool.length === 0) {
    const p = ttsCatalog.providers[0]!
    const m = p.models[0]!
    return { provider: p.id, model: m.id, voiceId: m.voices[0]?.id ?? 'default' }
  }
  const choice = rng.weighted(pool, pool.map((o) => TTS_POPULARITY[o.provider] ?? 3))
  return { provider: choice.provider, model: choice.model, voiceId: choice.voiceId }
}

/** Companies in an order that alternates billing plans, so even three tenants differ. */
function companiesByPlanRotation() {
  const byPlan = new Map<string, (typeof corpus.companies)[number][]>()
  for (const c of corpus.companies) byPlan.set(c.billing_plan, [...(byPlan.get(c.billing_plan) ?? []), c])
  const order = ['enterprise', 'growth', 'starter', 'trial'].filter((p) => byPlan.has(p))
  for (const p of byPlan.keys()) if (!order.includes(p)) order.push(p)
  const rotated: (typeof corpus.companies)[number][] = []
  while (rotated.length < corpus.companies.length) {
    for (const plan of order) {
      const next = byPlan.get(plan)!.shift()
      if (next) rotated.push(next)
    }
  }
  return rotated
}

export function buildOrganization(rng: Rng, scale: SeedScale, anchor: number): Organization {
  const tenants: SeedTenant[] = []
  const agents: SeedAgent[] = []
  const squads: SeedSquad[] = []
  const trunks: SeedTrunk[] = []
  const languages = Object.keys(corpus.languages)

  companiesByPlanRotation().slice(0, scale.tenants).forEach((company, index) => {
    const id = rng.uuid()
    const plan = company.billing_plan
    const profile = PLAN_PROFILE[plan] ?? PLAN_PROFILE.starter!
    const healthcare = company.industry === 'healthcare'
    const payments = company.industry === 'banking' || company.industry === 'insurance' || company.industry === 'retail'
    const last = index === scale.tenants - 1 && scale.tenants >= 5
    const status = plan === 'trial' ? 'trial' : last ? 'suspended' : 'active'
    const sipEnabled = plan !== 'trial'
    const recordingEnabled = !(healthcare && rng.bool(0.3))
    const recordingFormat = rng.weighted(['mp4', 'wav', 'mp3'], [6, 3, 2])
    const retentionDays = healthcare ? 2190 : payments ? 365 : rng.pick([30, 90, 90, 180])
    const webhookUrl = rng.bool(0.75) ? `https://hooks.${company.domain}/voice/events` : null
    const webhookTimeoutSeconds = rng.pick([20, 20, 10, 30])
    const createdAt = anchor - rng.int(120, 900) * DAY - rng.int(0, DAY)
    const tenantSlug = slug(company.name)
    const tenant: SeedTenant = {
      id,
      name: company.name,
      industry: company.industry,
      plan,
      domain: company.domain,
      status,
      sipEnabled,
      recordingEnabled,
      recordingFormat,
      retentionDays,
      webhookUrl,
      webhookTimeoutSeconds,
      weight: profile.weight,
      row: {
        id,
        name: company.name,
        billing_plan: plan,
        status,
        sip_enabled: sipEnabled ? 1 : 0,
        recording_enabled: recordingEnabled ? 1 : 0,
        analytics_enabled: plan === 'trial' ? 0 : 1,
        max_concurrent_calls: profile.concurrent,
        // monthly_call_limit and monthly_usage_cents are set from the generated calls afterwards.
        monthly_call_limit: 1000,
        monthly_usage_cents: 0,
        meta_data: JSON.stringify({
          industry: company.industry,
          region: rng.pick(['us-east-1', 'eu-west-1', 'ap-south-1', 'me-central-1', 'sa-east-1']),
          account_manager: `${rng.pick(corpus.first_names.en!)} ${rng.pick(corpus.last_names.en!)}`,
          crm_id: `ACC-${rng.int(100000, 999999)}`,
        }),
        sip_domain: sipEnabled ? `${tenantSlug}.sip.callscope.example` : null,
        sip_username: sipEnabled ? `${tenantSlug.replace(/-/g, '_')}_trunk` : null,
        hipaa_enabled: healthcare ? 1 : 0,
        pci_enabled: payments ? 1 : 0,
        recording_format: recordingFormat,
        retention_days: retentionDays,
        data_encryption_enabled: healthcare || payments || rng.bool(0.8) ? 1 : 0,
        webhook_url: webhookUrl,
        webhook_timeout_seconds: webhookTimeoutSeconds,
        created_at: iso(createdAt),
        updated_at: iso(anchor - rng.int(1, 20) * DAY - rng.int(0, DAY)),
      },
    }
    tenants.push(tenant)

    // Agents: personas in a rotating order so tenants differ; a few busy ones take most calls.
    const offset = index * 3
    const tenantAgents: SeedAgent[] = []
    for (let a = 0; a < scale.agentsPerTenant; a++) {
      const persona = corpus.agent_personas[(offset + a) % corpus.agent_personas.length]!
      const agentId = rng.uuid()
      const agentLanguages = persona.languages.filter((l) => languages.includes(l))
      const llm = pickLlm(rng)
      const stt = pickStt(rng, agentLanguages)
      const tts = pickTts(rng, agentLanguages[0]!)
      const status = a === scale.agentsPerTenant - 1 && scale.agentsPerTenant > 6 ? 'draft' : a === 4 && scale.agentsPerTenant > 6 ? 'inactive' : 'active'
      const agentCreated = createdAt + rng.int(1, 60) * DAY
      const name = `${persona.name} · ${persona.role}`
      const agent: SeedAgent = {
        id: agentId,
        tenantId: id,
        name,
        firstName: persona.name,
        languages: agentLanguages,
        llm,
        stt,
        tts,
        active: status === 'active',
        weight: 1 / (1 + a * 0.45),
        row: {
          id: agentId,
          tenant_id: id,
          name,
          description: persona.description,
          languages: JSON.stringify(agentLanguages),
          primary_language: agentLanguages[0],
          llm_provider: llm.provider,
          llm_model: llm.model,
          stt_provider: stt.provider,
          stt_model: stt.model,
          tts_provider: tts.provider,
          tts_model: tts.model,
          voice_id: tts.voiceId,
          status,
          created_at: iso(agentCreated),
          updated_at: iso(Math.max(agentCreated, anchor - rng.int(2, 40) * DAY)),
        },
      }
      tenantAgents.push(agent)
      agents.push(agent)
    }

    // Squads: groups of active agents; some switched routing strategy mid-period.
    const active = tenantAgents.filter((a) => a.active)
    for (let s = 0; s < scale.squadsPerTenant && active.length >= 3; s++) {
      const squadId = rng.uuid()
      const size = Math.min(active.length, rng.int(3, 6))
      const start = (s * 2) % active.length
      const members = Array.from({ length: size }, (_, k) => active[(start + k) % active.length]!)
      const strategy = ROUTING_STRATEGIES[(index + s) % ROUTING_STRATEGIES.length]!
      const switched = rng.bool(0.6)
      const previousStrategy = switched
        ? ROUTING_STRATEGIES[(index + s + 2) % ROUTING_STRATEGIES.length]!
        : null
      const squadCreated = createdAt + rng.int(30, 90) * DAY
      const squadName = `${company.name.split(' ')[0]} ${s === 0 ? 'Front Desk' : 'Specialists'}`
      squads.push({
        id: squadId,
        tenantId: id,
        strategy,
        previousStrategy,
        strategyChangedAt: anchor - Math.floor(scale.days / 2) * DAY,
        members,
        rows: {
          squad: {
            id: squadId,
            tenant_id: id,
            name: squadName,
            description: `${members.length} agents, ${strategy.replace('_', ' ')} routing`,
            routing_strategy: strategy,
            created_at: iso(squadCreated),
            updated_at: iso(switched ? anchor - Math.floor(scale.days / 2) * DAY : squadCreated),
          },
          members: members.map((m, k) => ({
            squad_id: squadId,
            agent_id: m.id,
            role: k === 0 ? 'lead' : k === members.length - 1 && members.length > 3 ? 'overflow' : 'member',
            priority: k,
            skills: JSON.stringify([...m.languages.map((l) => `lang:${l}`), company.industry]),
            joined_at: iso(squadCreated + k * DAY),
          })),
        },
      })
    }

    // SIP trunks for tenants with SIP enabled.
    if (sipEnabled) {
      const trunkCount = plan === 'enterprise' ? 2 : 1
      for (let t = 0; t < trunkCount; t++) {
        const trunkId = `ST_${rng.alnum(12)}`
        const prefix = corpus.languages[active[t % active.length]?.languages[0] ?? 'en']?.phone_prefix ?? '+1'
        const numbers = Array.from({ length: rng.int(1, 3) }, () => `${prefix}${rng.int(200, 989)}${rng.int(1000000, 9999999)}`)
        const withAuth = rng.bool(0.6)
        const allowedAddresses = withAuth && rng.bool(0.5) ? [] : [`203.0.113.${rng.int(1, 15) * 16}/28`, `198.51.100.${rng.int(1, 250)}`]
        const trunkCreated = createdAt + rng.int(5, 40) * DAY
        trunks.push({
          id: trunkId,
          tenantId: id,
          numbers,
          row: {
            sip_trunk_id: trunkId,
            tenant_id: id,
            name: `${company.name} ${t === 0 ? 'main line' : 'overflow'}`,
            numbers: JSON.stringify(numbers),
            allowed_addresses: JSON.stringify(allowedAddresses),
            allowed_numbers: JSON.stringify(t === 0 ? [] : [`${prefix}*`]),
            auth_username: withAuth ? `${tenantSlug.slice(0, 12)}-${rng.alnum(6).toLowerCase()}` : null,
            auth_password_set: withAuth ? 1 : 0,
            metadata: JSON.stringify({ carrier: rng.pick(['Twilio', 'Telnyx', 'Vonage', 'Plivo', 'Bandwidth']), tenant: tenantSlug }),
            krisp_enabled: rng.bool(0.5) ? 1 : 0,
            source: 'store',
            created_at: iso(trunkCreated),
            updated_at: iso(trunkCreated + rng.int(0, 30) * DAY),
          },
        })
      }
    }
  })

  return { tenants, agents, squads, trunks }
}
