import { corpus } from './corpus'
import type { Rng } from './rng'

/** Per-language values for the corpus placeholders: dates, times and amounts as a local would write them. */

const CURRENCY: Record<string, string> = { en: 'USD', es: 'EUR', hi: 'INR', fr: 'EUR', ar: 'SAR', de: 'EUR', pt: 'BRL' }
const AIRLINES = ['IB', 'AF', 'LH', 'AI', 'SV', 'LA', 'UA', 'EK']
const COURSES = ['DATA-101', 'BIO-210', 'ECON-150', 'CS-120', 'MKT-230', 'LAW-105']

interface Formatters {
  date: Intl.DateTimeFormat
  time: Intl.DateTimeFormat
  money: Intl.NumberFormat
}

const formatters = new Map<string, Formatters>()

function formattersFor(language: string): Formatters {
  let f = formatters.get(language)
  if (!f) {
    const locale = corpus.languages[language]?.locale ?? 'en-US'
    f = {
      date: new Intl.DateTimeFormat(locale, { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }),
      time: new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }),
      money: new Intl.NumberFormat(locale, { style: 'currency', currency: CURRENCY[language] ?? 'USD' }),
    }
    formatters.set(language, f)
  }
  return f
}

export function placeholderValues(
  rng: Rng,
  language: string,
  at: number,
  names: { agent: string; company: string },
): Record<string, string> {
  const f = formattersFor(language)
  const first = corpus.first_names[language] ?? corpus.first_names.en!
  const last = corpus.last_names[language] ?? corpus.last_names.en!
  const when = at + rng.int(1, 14) * 86_400_000
  const slot = new Date(when)
  slot.setUTCHours(rng.int(8, 18), rng.pick([0, 15, 30, 45]), 0, 0)
  return {
    agent_name: names.agent,
    company: names.company,
    customer_name: `${rng.pick(first)} ${rng.pick(last)}`,
    date: f.date.format(slot),
    time: f.time.format(slot),
    ref: `${rng.alnum(3).toUpperCase()}-${rng.int(100000, 999999)}`,
    order_id: `${rng.int(1000000, 9999999)}`,
    last4: `${rng.int(1000, 9999)}`,
    flight: `${rng.pick(AIRLINES)}${rng.int(100, 9999)}`,
    amount: f.money.format(rng.int(1500, 48000) / 100),
    claim_id: `CLM-${rng.int(100000, 999999)}`,
    party_size: `${rng.int(2, 8)}`,
    course: rng.pick(COURSES),
  }
}

export function phoneNumber(rng: Rng, language: string): string {
  const prefix = corpus.languages[language]?.phone_prefix ?? '+1'
  return `${prefix}${rng.int(200, 989)}${rng.int(1000000, 9999999)}`
}
