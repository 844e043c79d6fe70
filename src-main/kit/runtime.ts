import type { BackupSchedule, BackupStatus } from '../../src-shared/schemas/backup-schedule'
import type { ListenerConfig, ListenerStatus } from '../../src-shared/schemas/listener'
import type { TeamServerConnectInput, TeamServerStatus } from '../../src-shared/schemas/team-server'

/**
 * Runtime contracts: what an entry point (desktop app, `serve`) tells the services and
 * procedures about the process they run in. Services may import this file; it imports nothing
 * of theirs.
 */

/** How this process serves the console: filled in by the entry point once the listener is up. */
export interface RuntimeInfo {
  mode: 'headless' | 'desktop'
  /** The HTTP listener's base URL; null while not listening (or in a desktop app without one). */
  listenerUrl: string | null
}

/** The desktop app's optional REST listener, driven from the Settings page. */
export interface ListenerControl {
  status(): ListenerStatus
  /** Applies a configuration: stops the listener, starts it again if enabled. Never throws for a busy port. */
  configure(config: ListenerConfig): Promise<ListenerStatus>
  stop(): Promise<void>
}

/** The desktop app's own powers, given to procedures called over IPC. */
export interface DesktopControls {
  listener: ListenerControl
  /** Asks the user where to save a file; null when they cancel. */
  chooseSavePath(defaultName: string): Promise<string | null>
  /** The team server the console reads instead of the local store (absent in tests that do not need it). */
  teamServer?: TeamServerSettings
  /** Settings → Backups: the scheduled backups of the open store (desktop/backup-control.ts). */
  backups?: BackupSettings
}

/** Settings → Backups: the schedule and how the last backup went. */
export interface BackupSettings {
  status(): BackupStatus
  configure(schedule: BackupSchedule): BackupStatus
}

/** Settings → Team server: what the procedures may do with the connection. */
export interface TeamServerSettings {
  status(): TeamServerStatus
  connect(input: TeamServerConnectInput): Promise<TeamServerStatus>
  disconnect(): TeamServerStatus
}
