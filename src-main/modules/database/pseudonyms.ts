import { createHmac } from 'node:crypto'

/**
 * Stand-ins for personal data in a redacted pack. Each is derived from an HMAC of the original
 * under a key made for one pack and then forgotten: the same original gets the same stand-in
 * everywhere in that pack, and nobody holding the pack can recompute or reverse the mapping
 * (a plain hash of a phone number could be brute-forced in minutes). A stand-in keeps the shape of
 * what it replaces, so the console and the API show and filter it as before.
 */
export interface Pseudonyms {
  /** `+1555` and digits, as many digits in all as the original (8 to 15). */
  phone(original: string): string
  /** `user-<hex>@example.invalid` (RFC 2606: never deliverable). */
  email(original: string): string
  /** `Person <hex>`. */
  name(original: string): string
  /** An end user's id: a phone or e-mail stand-in when it is one, else its prefix (`usr_`) and hex. */
  userId(original: string): string
  /** `https://origin-<hex>.invalid`, for a pulled backend's address. */
  origin(original: string): string
  /** How many distinct originals of each kind were replaced. */
  counts(): Record<Kind, number>
}

type Kind = 'phone' | 'email' | 'name' | 'user' | 'origin'

const PHONE_LIKE = /^\+?[\d\s().-]{7,}$/
const EMAIL_LIKE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const ID_PREFIX = /^[A-Za-z]{1,12}[_:-]/

export function phoneDigits(value: string): string {
  return value.replace(/\D/g, '')
}

/** Whether a value as a whole is a phone number: 7 to 15 digits, optionally formatted. */
export function isPhoneLike(value: string): boolean {
  if (!PHONE_LIKE.test(value)) return false
  const digits = phoneDigits(value).length
  return digits >= 7 && digits <= 15
}

export const isEmailLike = (value: string): boolean => EMAIL_LIKE.test(value)

export function createPseudonyms(key: Buffer): Pseudonyms {
  const assigned = new Map<string, string>()
  const taken = new Set<string>()
  const counts: Record<Kind, number> = { phone: 0, email: 0, name: 0, user: 0, origin: 0 }

  /** The stand-in of `normalized`; a collision with another original's stand-in draws again, longer. */
  function assign(kind: Kind, normalized: string, make: (digest: Buffer, attempt: number) => string): string {
    const id = `${kind}\0${normalized}`
    const known = assigned.get(id)
    if (known !== undefined) return known
    for (let attempt = 0; ; attempt++) {
      const digest = createHmac('sha256', key).update(`${kind}\0${attempt}\0${normalized}`).digest()
      const candidate = make(digest, attempt)
      if (taken.has(candidate)) continue
      taken.add(candidate)
      assigned.set(id, candidate)
      counts[kind]++
      return candidate
    }
  }

  // Four more characters every eight collisions: a pack with more originals than short stand-ins
  // still ends, and small packs keep short ones.
  const hex = (digest: Buffer, attempt: number, base: number) => digest.toString('hex').slice(0, base + 4 * Math.floor(attempt / 8))
  const decimal = (digest: Buffer, count: number) => Array.from(digest.subarray(0, count), (b) => String(b % 10)).join('')

  const phone = (original: string) => {
    const digits = phoneDigits(original)
    return assign('phone', digits, (digest, attempt) => {
      const total = Math.min(15, Math.max(8, digits.length) + Math.floor(attempt / 8))
      return `+1555${decimal(digest, total - 4)}`
    })
  }
  const email = (original: string) => assign('email', original.toLowerCase(), (d, a) => `user-${hex(d, a, 8)}@example.invalid`)

  return {
    phone,
    email,
    name: (original) => assign('name', original, (d, a) => `Person ${hex(d, a, 4)}`),
    userId(original) {
      if (isEmailLike(original)) return email(original)
      if (isPhoneLike(original)) return phone(original)
      const prefix = ID_PREFIX.exec(original)?.[0] ?? 'user_'
      const length = Math.max(8, Math.min(32, original.length - prefix.length))
      return assign('user', original, (d, a) => `${prefix}${hex(d, a, length)}`)
    },
    origin: (original) => assign('origin', original, (d, a) => `https://origin-${hex(d, a, 8)}.invalid`),
    counts: () => ({ ...counts }),
  }
}
