import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema'
import * as repo from './sources.repo'

/*
 * Sources (issue 15 pt 4): where a store's rows come from. `local` is Callscope's own (seeded,
 * created, imported; stored as source ''); every other source is a backend pulled from, named by
 * its normalized base URL, as each pulled row records it. A reader may be limited to one source
 * (`?source=`, a token bound to it, the console's picker); unlimited, it reads them all.
 */

/** The name a request uses for Callscope's own rows; stored as ''. */
export const LOCAL_SOURCE = 'local'

export interface SourceListing {
  /** `local`, or the backend's base URL. */
  name: string
  /** What rows of this source store in their `source` column. */
  key: string
  kind: 'local' | 'pulled'
  firstPullAt: string | null
  lastPullAt: string | null
}

export type SourceResolution = { key: string } | { problem: string }

/** `http://host:port/path` as `host:port/path`: what a user types for a source. */
const withoutScheme = (url: string) => url.replace(/^https?:\/\//, '')

export function createSourcesService(db: Kysely<Database>) {
  async function list(): Promise<SourceListing[]> {
    const pulled = await repo.pulledSources(db)
    return [
      { name: LOCAL_SOURCE, key: '', kind: 'local', firstPullAt: null, lastPullAt: null },
      ...pulled.map((p) => ({ name: p.source, key: p.source, kind: 'pulled' as const, firstPullAt: p.first_pull_at, lastPullAt: p.last_pull_at })),
    ]
  }

  /**
   * The stored key of the source a request names: `local`, a pulled backend's base URL (a trailing
   * slash or the scheme may be left out), or nothing known, said with the names that are.
   */
  async function resolve(name: string): Promise<SourceResolution> {
    const wanted = name.trim().replace(/\/+$/, '')
    if (wanted.toLowerCase() === LOCAL_SOURCE) return { key: '' }
    const sources = (await list()).filter((s) => s.kind === 'pulled')
    const exact = sources.find((s) => s.key === wanted)
    if (exact) return { key: exact.key }
    const loose = sources.filter((s) => withoutScheme(s.key).toLowerCase() === withoutScheme(wanted).toLowerCase())
    if (loose.length === 1) return { key: loose[0]!.key }
    const known = [LOCAL_SOURCE, ...sources.map((s) => s.key)].map((n) => `'${n}'`).join(', ')
    return { problem: `Unknown source '${name.slice(0, 200)}': this store has ${known}` }
  }

  return { list, resolve }
}

export type SourcesService = ReturnType<typeof createSourcesService>
