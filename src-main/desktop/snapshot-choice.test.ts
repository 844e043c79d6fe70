import { describe, expect, it } from 'vitest'
import { snapshotChoice, snapshotChoiceBox, snapshotWrittenDetail } from './snapshot-choice'

describe('File → Save Snapshot… choices', () => {
  const today = new Date('2026-11-20T12:00:00Z')

  it('offers the three packs of `callscope snapshot` and Cancel, safe by default', () => {
    expect(snapshotChoiceBox.buttons).toEqual(['Without secrets', 'Redacted', 'With secrets', 'Cancel'])
    expect(snapshotChoice(snapshotChoiceBox.defaultId!, today)).toEqual({ options: {}, fileName: 'callscope-snapshot-2026-11-20.sqlite' })
    expect(snapshotChoice(1, today)).toEqual({ options: { redact: true }, fileName: 'callscope-snapshot-2026-11-20-redacted.sqlite' })
    expect(snapshotChoice(2, today)).toEqual({ options: { includeSecrets: true }, fileName: 'callscope-snapshot-2026-11-20-with-secrets.sqlite' })
  })

  it('writes nothing on Cancel or when the box is closed', () => {
    expect(snapshotChoice(snapshotChoiceBox.cancelId!, today)).toBeNull()
    expect(snapshotChoice(-1, today)).toBeNull()
  })

  it('says what the written pack holds', () => {
    const base = { path: '/tmp/p.sqlite', sizeBytes: 2 * 1024 * 1024 }
    const left = { tokens: 1, credentials: 0, webhookSecrets: 0, origins: 0, settings: 0 }
    const redacted = { rows: 1, phones: 1, emails: 0, names: 0, users: 0 }
    expect(snapshotWrittenDetail({ ...base, secretsLeftOut: left, redacted: null })).toMatch(/^\/tmp\/p\.sqlite \(2\.0 MiB\)\. Secrets left out\./)
    expect(snapshotWrittenDetail({ ...base, secretsLeftOut: left, redacted })).toContain('Personal data pseudonymised; secrets left out.')
    expect(snapshotWrittenDetail({ ...base, secretsLeftOut: null, redacted: null })).toContain('Secrets included.')
  })
})
