import type { MessageBoxOptions } from 'electron'
import type { SnapshotOptions, SnapshotResult } from '../modules/database/snapshot-pack'

/**
 * File → Save Snapshot… asks which pack to write before the save dialog: the same three packs
 * `callscope snapshot` writes (plain, --redact, --include-secrets), safe by default.
 */

interface Choice {
  button: string
  options: SnapshotOptions
  /** Suffix of the suggested file name, so a pack's kind shows in its name. */
  suffix: string
}

const CHOICES: readonly Choice[] = [
  { button: 'Without secrets', options: {}, suffix: '' },
  { button: 'Redacted', options: { redact: true }, suffix: '-redacted' },
  { button: 'With secrets', options: { includeSecrets: true }, suffix: '-with-secrets' },
]

export const snapshotChoiceBox: MessageBoxOptions = {
  type: 'question',
  message: 'Which snapshot do you want to save?',
  detail: [
    'Without secrets: every row, but no API tokens, provider credentials, webhook secrets, pull origins or secret settings.',
    'Redacted: the same, and phone numbers, e-mail addresses, person names and user ids replaced by consistent stand-ins.',
    'With secrets: an exact copy. Only for your own machines.',
  ].join('\n\n'),
  buttons: [...CHOICES.map((c) => c.button), 'Cancel'],
  defaultId: 0,
  cancelId: CHOICES.length,
  noLink: true,
}

/** The pack the message box's answer stands for, with a suggested file name; null on Cancel. */
export function snapshotChoice(response: number, today: Date): { options: SnapshotOptions; fileName: string } | null {
  const choice = CHOICES[response]
  if (!choice) return null
  return { options: choice.options, fileName: `callscope-snapshot-${today.toISOString().slice(0, 10)}${choice.suffix}.sqlite` }
}

/** The message shown once the pack is written. */
export function snapshotWrittenDetail(result: SnapshotResult): string {
  const kind = result.redacted ? 'Personal data pseudonymised; secrets left out.' : result.secretsLeftOut ? 'Secrets left out.' : 'Secrets included.'
  return `${result.path} (${(result.sizeBytes / 1024 / 1024).toFixed(1)} MiB). ${kind} Open it with File → Open Database… or callscope serve --db.`
}
