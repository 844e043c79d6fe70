import type BetterSqlite3 from 'better-sqlite3'
import type { Database } from '../../db/schema'
import { rewriteRows, type RowValues, scanRows, withSearchIndexRebuilt } from './pack.repo'
import { introducedNames, namesInJson, userIdsInJson } from './person-names'
import { isPhoneLike, type Pseudonyms } from './pseudonyms'
import { createKnownValues, createScrubber, type KnownValues, scrubJsonText } from './text-scrubber'

/**
 * Where personal data lives, column by column:
 * - `text`: free text, scrubbed (e-mails, phone numbers, known names and user ids);
 * - `json`: JSON text whose strings are scrubbed, so it stays valid JSON with its numbers intact;
 * - `user`: an end user's id, replaced whole (and wherever it occurs in text);
 * - `phone`: a phone number replaced whole, or other text (`webrtc:usr_…`) scrubbed.
 * Ids, timestamps and enumerations are not personal and stay, so every relation, filter and
 * aggregate of the pack gives what the original gives.
 */
type ColumnKind = 'text' | 'json' | 'user' | 'phone'

export const PERSONAL_COLUMNS: ReadonlyArray<{ table: keyof Database; columns: Record<string, ColumnKind> }> = [
  { table: 'tenants', columns: { meta_data: 'json' } },
  { table: 'pulled_tenants', columns: { meta_data: 'json' } },
  { table: 'conversations', columns: { user_id: 'user' } },
  { table: 'messages', columns: { content: 'text', tool_arguments: 'json', tool_result: 'json' } },
  { table: 'calls', columns: { from_number: 'phone', to_number: 'phone' } },
  { table: 'call_logs', columns: { message: 'text', details: 'json', user_id: 'user' } },
  { table: 'sip_inbound_trunks', columns: { numbers: 'json', allowed_numbers: 'json', metadata: 'text' } },
  { table: 'imports', columns: { errors: 'json', failure: 'text' } },
  { table: 'pulls', columns: { errors: 'json', failure: 'text' } },
  { table: 'pulled_documents', columns: { body: 'json' } },
  { table: 'pulled_sessions', columns: { last_message_preview: 'text' } },
  { table: 'pulled_squad_analytics', columns: { body: 'json', default_body: 'json' } },
  { table: 'pulled_sip_trunks', columns: { body: 'json' } },
  { table: 'settings', columns: { value: 'json' } },
  // Events carry phone numbers and transcripts; a receiver's answer or a rejected body may too.
  { table: 'webhook_deliveries', columns: { payload: 'json' } },
  { table: 'webhook_attempts', columns: { response_excerpt: 'text' } },
  { table: 'webhook_inbox', columns: { body: 'text' } },
  // A view's name, description and query may quote a caller (a number, a name): scrubbed as the
  // lines are, with the same stand-ins, so a redacted pack's views still find the redacted lines.
  { table: 'saved_views', columns: { name: 'text', description: 'text', state: 'json' } },
]

export interface RedactionCounts {
  /** Rows with at least one value replaced. */
  rows: number
  phones: number
  emails: number
  names: number
  users: number
}

/**
 * Whether a user id is distinctive enough to be looked for in free text too: `usr_k3J9aPq0Zx` is,
 * `admin` (the seed's system actor) is a word, and replacing the word everywhere would mangle text.
 */
const distinctiveId = (id: string) => id.length >= 4 && /[\d_.:@|-]/.test(id)

/** First pass: the names, user ids and bare phone numbers the pack's structured fields hold. */
function collectKnownValues(sqlite: BetterSqlite3.Database, notPeople: ReadonlySet<string>): KnownValues {
  const known = createKnownValues()
  const collect = (kind: ColumnKind, value: string) => {
    if (kind === 'user' && distinctiveId(value)) known.add(value, 'user')
    else if (kind === 'phone' && isPhoneLike(value)) known.add(value, 'phone')
    if (kind === 'json') {
      for (const name of namesInJson(value)) known.add(name, 'name')
      for (const id of userIdsInJson(value)) if (distinctiveId(id)) known.add(id, 'user')
    }
    if (kind === 'text' || kind === 'json') for (const name of introducedNames(value, notPeople)) known.add(name, 'name')
  }
  for (const { table, columns } of PERSONAL_COLUMNS) {
    const entries = Object.entries(columns)
    scanRows(sqlite, table, Object.keys(columns), (row) => {
      for (const [column, kind] of entries) {
        const value = row[column]
        if (value != null) collect(kind, value)
      }
    })
  }
  return known
}

/**
 * Pseudonymises the personal data of a pack's working copy in place (see PERSONAL_COLUMNS), with
 * the full-text index rebuilt from the new messages. Runs in one transaction.
 */
export function redactPersonalData(sqlite: BetterSqlite3.Database, pseudonyms: Pseudonyms, notPeople: ReadonlySet<string>): RedactionCounts {
  return sqlite.transaction(() => {
    const known = collectKnownValues(sqlite, notPeople)
    const scrub = createScrubber(pseudonyms, known)
    const rewrite: Record<ColumnKind, (value: string) => string> = {
      text: scrub,
      json: (value) => scrubJsonText(value, scrub),
      user: (value) => pseudonyms.userId(value),
      phone: (value) => (isPhoneLike(value) ? pseudonyms.phone(value) : scrub(value)),
    }
    let rows = 0
    withSearchIndexRebuilt(sqlite, () => {
      for (const { table, columns } of PERSONAL_COLUMNS) {
        const entries = Object.entries(columns)
        rows += rewriteRows(sqlite, table, Object.keys(columns), (row) => {
          const next: RowValues = { ...row }
          for (const [column, kind] of entries) {
            const value = row[column]
            if (value != null) next[column] = rewrite[kind](value)
          }
          return next
        })
      }
    })
    const { phone, email, name, user } = pseudonyms.counts()
    return { rows, phones: phone, emails: email, names: name, users: user }
  })()
}
