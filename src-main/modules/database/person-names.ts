import { isEmailLike, isPhoneLike } from './pseudonyms'
import { jsonValuesOf } from './text-scrubber'

/**
 * Which person names a pack holds, as far as they can be found without a language model: values of
 * JSON keys that name a person (`customer_name`, `first_name`, `account_manager`, …) and names
 * people give in a sentence ("my name is …", "this is …", and the same in Spanish, French, German
 * and Portuguese). Each name found is then replaced wherever it occurs. A name said only in
 * passing ("thanks, Maria"), written in lower case, or in a script without capitals (Arabic,
 * Devanagari) is not found: docs/architecture.md, "Snapshots", lists these limits.
 */

const PERSON_KEYS =
  /(?:customer|caller|contact|patient|client|guest|passenger|student|member|user|person|full|first|last|given|family|display|sur|middle)_?name|surname|account_manager|contact_person|caller_id_name|cnam/
const USER_KEYS = /user_id|userId|end_user_id/

// Up to three capitalised words; a lower-case word ("from", "de") ends the name.
const NAME = String.raw`\p{Lu}[\p{L}\p{M}'’-]*(?:[ \u00a0]\p{Lu}[\p{L}\p{M}'’-]*){0,2}`
const INTRODUCTIONS = [
  "[Mm]y name is", "[Mm]y name's", '[Tt]his is',
  '[Mm]e llamo', '[Mm]i nombre es',
  "[Jj]e m['’]appelle", '[Mm]on nom est',
  '[Ii]ch heiße', '[Mm]ein [Nn]ame ist',
  '[Mm]eu nome é', '[Mm]e chamo',
]
const INTRODUCTION = new RegExp(String.raw`(?<!\p{L})(?:${INTRODUCTIONS.join('|')})\s+(${NAME})`, 'gu')

/** Whether a structured value can be a name: has letters, is not an address, number or URL, and is short. */
function plausibleName(value: string): boolean {
  const trimmed = value.trim()
  return trimmed.length >= 2 && trimmed.length <= 100 && /\p{L}/u.test(trimmed) && !isEmailLike(trimmed) && !isPhoneLike(trimmed) && !/^[a-z]+:\/\//i.test(trimmed)
}

/** Person names held under person-naming keys of a JSON text. */
export function namesInJson(json: string): string[] {
  return jsonValuesOf(json, PERSON_KEYS).map((v) => v.trim()).filter(plausibleName)
}

/** End-user ids held under `user_id`-like keys of a JSON text. */
export function userIdsInJson(json: string): string[] {
  return jsonValuesOf(json, USER_KEYS).filter((v) => v.length > 0)
}

/**
 * Names introduced in free text. `notPeople` holds first words that are known not to be people
 * here: the voice agents' names ("this is Aria from Northwind") and the tenants' names.
 */
export function introducedNames(text: string, notPeople: ReadonlySet<string>): string[] {
  const found: string[] = []
  for (const m of text.matchAll(INTRODUCTION)) {
    const name = m[1]!.replace(/['’]s$/, '')
    if (!notPeople.has(name.split(/[ \u00a0]/)[0]!) && !notPeople.has(name)) found.push(name)
  }
  return found
}

/** The first words of agent and tenant names, and the names themselves: never taken for a person. */
export function notPeopleFrom(names: readonly string[]): Set<string> {
  const set = new Set<string>()
  for (const name of names) {
    set.add(name)
    const first = name.split(/[\s·]/)[0]
    if (first) set.add(first)
  }
  return set
}
