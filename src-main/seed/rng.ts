/**
 * A small seeded PRNG (sfc32) with the helpers the demo generator needs. Math.random cannot be
 * seeded, and the generator must give the same data for the same seed on every machine.
 */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number
  /** Integer in [min, max], both included. */
  int(min: number, max: number): number
  bool(probability: number): boolean
  pick<T>(items: readonly T[]): T
  /** Picks by weight; weights need not sum to 1. */
  weighted<T>(items: readonly T[], weights: readonly number[]): T
  /** Roughly normal (sum of uniforms), clamped to [min, max]. */
  around(mean: number, spread: number, min: number, max: number): number
  /** Version 4 UUID made of generator output. */
  uuid(): string
  hex(length: number): string
  /** Letters and digits. */
  alnum(length: number): string
  /** Derives an independent generator, so adding draws in one part does not shift another. */
  fork(label: string): Rng
}

const HEX = '0123456789abcdef'
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

function hashString(text: string): number {
  let h = 2166136261
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 16777619)
  }
  return h >>> 0
}

export function createRng(seed: number | string): Rng {
  const base = typeof seed === 'number' ? seed >>> 0 : hashString(seed)
  let a = 0x9e3779b9 ^ base
  let b = 0x243f6a88 ^ Math.imul(base, 0x85ebca6b)
  let c = 0xb7e15162 ^ Math.imul(base, 0xc2b2ae35)
  let d = 1
  const u32 = (): number => {
    a |= 0
    b |= 0
    c |= 0
    d |= 0
    const t = (((a + b) | 0) + d) | 0
    d = (d + 1) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    c = (c + t) | 0
    return t >>> 0
  }
  for (let i = 0; i < 16; i++) u32()

  const next = () => u32() / 4294967296
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1))
  const hex = (length: number) => {
    let out = ''
    for (let i = 0; i < length; i++) out += HEX[u32() & 15]
    return out
  }

  return {
    next,
    int,
    bool: (p) => next() < p,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list')
      return items[Math.floor(next() * items.length)]!
    },
    weighted: (items, weights) => {
      let total = 0
      for (const w of weights) total += w
      let r = next() * total
      for (let i = 0; i < items.length; i++) {
        r -= weights[i]!
        if (r < 0) return items[i]!
      }
      return items[items.length - 1]!
    },
    around: (mean, spread, min, max) => {
      const z = (next() + next() + next() + next() - 2) * 1.7320508
      return Math.min(max, Math.max(min, mean + z * spread))
    },
    uuid: () => {
      const h = hex(32)
      const variant = HEX[8 + (u32() & 3)]
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`
    },
    hex,
    alnum: (length) => {
      let out = ''
      for (let i = 0; i < length; i++) out += ALNUM[u32() % ALNUM.length]
      return out
    },
    fork: (label) => createRng((base ^ hashString(label)) >>> 0),
  }
}
