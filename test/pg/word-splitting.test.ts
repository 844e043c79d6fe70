import Database from 'better-sqlite3'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPgDatabase } from '../helpers/pg-database'

/*
 * How each store splits and folds a message for the word index and the substring index (issue 20
 * pt 2): SQLite's FTS5 tables (unicode61 remove_diacritics 2; trigram remove_diacritics 1, as
 * migrations 0001 and 0014 create them) against PostgreSQL's tsvector and pg_trgm expressions (pg
 * migration 0002: callscope_search_text, callscope_word_query, callscope_fold). Every word of
 * the messages below is looked up in both; the same messages must be found, except for the
 * differences listed in docs/architecture.md ("PostgreSQL store"), each asserted as it is.
 */

let client: pg.Client
const sqlite = new Database(':memory:')

const MESSAGES = [
  'LLM request openai/gpt-4o-mini failed: upstream timeout after 10000 ms (attempt 2/3)',
  'STT provider deepgram returned 429 Too Many Requests, retrying in 500 ms',
  'GET https://api.example.com/v1/calls?limit=20 -> 503, user_id=42 trace=ab12-cd34',
  'Tool lookup_order returned in 3.14 s, version v1.2.3, path /var/log/app.log',
  'Café Ünïcode ÉCOLE naïve “quoted” — dash, don\'t re-try',
  'ПРИВЕТ мир, Ελληνικά ΓΡΆΜΜΑΤΑ, hello世界',
  'Straße Æsir œuvre ﬁle',
  'x² ① emoji🙂word',
]

const WORDS = [
  'llm', 'request', 'openai', 'gpt', '4o', 'mini', 'upstream', 'timeout', '10000', 'attempt', '2', '3',
  'stt', 'deepgram', '429', 'too', 'many', 'requests', 'retrying', '500', 'ms',
  'get', 'https', 'api', 'example', 'com', 'v1', 'calls', 'limit', '20', '503', 'user', 'id', '42', 'trace', 'ab12', 'cd34',
  'tool', 'lookup', 'order', '14', 'version', 'var', 'log', 'app',
  'cafe', 'café', 'unicode', 'ecole', 'école', 'naive', 'quoted', 'dash', 'don', 't', 're', 'try',
  'привет', 'мир', 'ελληνικα', 'γραμματα', 'hello世界', 'hello',
  'straße', 'æsir', 'œuvre', 'ﬁle', 'x²', 'emoji🙂word',
  // Found only on PostgreSQL (asserted below).
  'strasse', 'aesir', 'oeuvre', 'file', 'x', 'emoji', 'word',
  // Found only on SQLite.
  '①',
]

/** Words PostgreSQL finds in a message where SQLite does not, and the other way round: message numbers. */
const ONLY_POSTGRES: Record<string, number[]> = {
  // unaccent writes ligatures and ß as their letters.
  strasse: [7],
  aesir: [7],
  oeuvre: [7],
  file: [7],
  // Greek (and other non-Latin) accents: unaccent removes them, unicode61 only Latin ones.
  ελληνικα: [6],
  γραμματα: [6],
  // Superscript digits and characters outside the BMP join a word in unicode61, not in PostgreSQL.
  x: [8],
  emoji: [8],
  word: [8],
}
const ONLY_SQLITE: Record<string, number[]> = {
  // Circled and other "No" digits are word characters of unicode61, not of ICU's [:alnum:].
  '①': [8],
}

beforeAll(async () => {
  client = new pg.Client({ connectionString: await createPgDatabase({ seed: false }) })
  await client.connect()
  sqlite.exec(`create virtual table words using fts5(m, tokenize = "unicode61 remove_diacritics 2");
    create virtual table trigrams using fts5(m, tokenize = "trigram remove_diacritics 1")`)
  MESSAGES.forEach((m, i) => {
    sqlite.prepare('insert into words(rowid, m) values (?, ?)').run(i + 1, m)
    sqlite.prepare('insert into trigrams(rowid, m) values (?, ?)').run(i + 1, m)
  })
})

afterAll(async () => {
  await client?.end()
  sqlite.close()
})

const fts = (text: string, prefix = false) => `"${text.replace(/"/g, '""')}"${prefix ? '*' : ''}`

function sqliteFinds(table: 'words' | 'trigrams', match: string): number[] {
  return (sqlite.prepare(`select rowid from ${table} where ${table} match ? order by rowid`).all(match) as Array<{ rowid: number }>).map((r) => r.rowid)
}

async function postgresFinds(condition: string, params: unknown[]): Promise<number[]> {
  const { rows } = await client.query<{ i: string }>(
    `select i from unnest($1::text[]) with ordinality as m(message, i) where ${condition} order by i`,
    [MESSAGES, ...params],
  )
  return rows.map((r) => Number(r.i))
}

const withoutAll = (list: number[], drop: number[] = []) => list.filter((n) => !drop.includes(n))

describe('word and substring matching on both stores', () => {
  it('finds every word, phrase and prefix in the same messages, but for the listed differences', async () => {
    let found = 0
    for (const word of WORDS) {
      for (const prefix of [false, true]) {
        const a = sqliteFinds('words', fts(word, prefix))
        const b = await postgresFinds(`to_tsvector('simple', callscope_search_text(message)) @@ callscope_word_query($2, ${prefix})`, [word])
        if (a.length > 0) found++
        if (!prefix) {
          expect(withoutAll(b, ONLY_POSTGRES[word]), word).toEqual(withoutAll(a, ONLY_SQLITE[word]))
          expect(b.filter((n) => !a.includes(n)), word).toEqual(ONLY_POSTGRES[word] ?? [])
          expect(a.filter((n) => !b.includes(n)), word).toEqual(ONLY_SQLITE[word] ?? [])
        } else if (!ONLY_POSTGRES[word] && !ONLY_SQLITE[word]) {
          expect(b, `${word}*`).toEqual(a)
        }
      }
    }
    expect(found).toBeGreaterThan(100)
    // Phrases: adjacent words, punctuation between ignored, on both.
    for (const phrase of ['too many requests', 'rate limit', 'gpt 4o mini', 'api.example.com', 'user_id=42', 'Too Many', 'many too', 'lookup order returned', 'hello世界']) {
      const a = sqliteFinds('words', fts(phrase))
      expect(await postgresFinds(`to_tsvector('simple', callscope_search_text(message)) @@ callscope_word_query($2, false)`, [phrase]), phrase).toEqual(a)
    }
  })

  it('finds substrings of three characters or more in the same messages, any case, diacritics folded', async () => {
    for (const text of ['imeout', 'IMEOUT', 'xample.co', 'afe', 'AFÉ', 'ривет', 'ΓΡΆΜ', 'upstream t', '/v1/', '3.1', 'ookup_ord', 'ЁЁЁ', 'nope']) {
      const a = sqliteFinds('trigrams', fts(text))
      const b = await postgresFinds(`callscope_fold(message) like ('%' || replace(replace(replace(callscope_fold($2), '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%')`, [text])
      expect(b, text).toEqual(a)
    }
    // unaccent's ß → ss again: a substring across it differs.
    expect(sqliteFinds('trigrams', fts('rasse'))).toEqual([])
    expect(await postgresFinds(`callscope_fold(message) like '%rasse%'`, [])).toEqual([7])
  })
})
