import { TRPCError } from '@trpc/server'
import { backupScheduleSchema, backupStatusSchema } from '../../../src-shared/schemas/backup-schedule'
import { listenerConfigSchema } from '../../../src-shared/schemas/listener'
import { teamServerConnectSchema, teamServerStatusSchema } from '../../../src-shared/schemas/team-server'
import type { BackupSettings, TeamServerSettings } from '../../kit/runtime'
import { adminProcedure, procedure, requireDesktop, router, type TrpcContext } from '../../kit/trpc'
import type { DatabaseService } from '../database/database.service'
import { settingsInfo } from './settings.service'

const NOT_LISTENING = { mode: 'headless', listenerUrl: null } as const

const requireTeamServer = (ctx: TrpcContext): TeamServerSettings => {
  const team = requireDesktop(ctx).teamServer
  if (!team) throw new TRPCError({ code: 'BAD_REQUEST', message: 'This desktop app cannot connect to a team server' })
  return team
}

const requireBackups = (ctx: TrpcContext): BackupSettings => {
  const backups = requireDesktop(ctx).backups
  if (!backups) throw new TRPCError({ code: 'BAD_REQUEST', message: 'This desktop app has no scheduled backups' })
  return backups
}

export const settingsRouter = (database: DatabaseService) =>
  router({
    /** Database location, size, schema version and row counts, and the HTTP listener's address. */
    info: procedure.query(({ ctx }) => settingsInfo(ctx.principal, database.info, ctx.runtime ?? NOT_LISTENING)),
    /** The desktop app's optional HTTP listener: its configuration, URL and last error. */
    listener: adminProcedure.query(({ ctx }) => requireDesktop(ctx).listener.status()),
    /** Turns the listener on or off, or moves it; persisted across restarts. */
    setListener: adminProcedure.input(listenerConfigSchema).mutation(({ ctx, input }) => requireDesktop(ctx).listener.configure(input)),
    /**
     * The team server the desktop console reads instead of the local store (issue 20 pt 4). These
     * three are always answered by the desktop app itself, connected or not (server/ipc.ts).
     */
    teamServer: adminProcedure.output(teamServerStatusSchema).query(({ ctx }) => requireTeamServer(ctx).status()),
    connectTeamServer: adminProcedure
      .input(teamServerConnectSchema)
      .output(teamServerStatusSchema)
      .mutation(({ ctx, input }) => requireTeamServer(ctx).connect(input)),
    disconnectTeamServer: adminProcedure.output(teamServerStatusSchema).mutation(({ ctx }) => requireTeamServer(ctx).disconnect()),
    /** Settings → Backups: the open store's scheduled backups (as `serve --backup-every`), persisted across restarts. */
    backups: adminProcedure.output(backupStatusSchema).query(({ ctx }) => requireBackups(ctx).status()),
    setBackups: adminProcedure
      .input(backupScheduleSchema)
      .output(backupStatusSchema)
      .mutation(({ ctx, input }) => requireBackups(ctx).configure(input)),
  })
