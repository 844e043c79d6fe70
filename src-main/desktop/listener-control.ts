import { type ListenerConfig, listenerConfigSchema, type ListenerStatus } from '../../src-shared/schemas/listener'
import type { ListenerControl, RuntimeInfo } from '../kit/runtime'
import { createHttpApp } from '../server/http-app'
import { createHostGuard } from '../server/host-guard'
import { type Listener, ListenError, startListener } from '../server/listener'
import type { Service } from '../service'

export type { ListenerControl } from '../kit/runtime'

export interface ListenerControlOptions {
  service: () => Service
  version: string
  uiRoot: string | null
  /** Shared with the IPC handler: the console's Settings page reads the URL from it. */
  runtime: RuntimeInfo
  /** Persists the configuration (desktop settings file). */
  save: (config: ListenerConfig) => void
}

/**
 * The desktop app's optional REST listener. The same Hono app as `callscope serve`, started and
 * stopped from the Settings page; a port conflict is reported in the status, not thrown.
 */
export function createListenerControl(initial: ListenerConfig, options: ListenerControlOptions): ListenerControl {
  let config = listenerConfigSchema.parse(initial)
  let listener: Listener | null = null
  let error: string | null = null

  const status = (): ListenerStatus => ({ config, url: listener?.url ?? null, error })

  async function stop(): Promise<void> {
    const running = listener
    listener = null
    options.runtime.listenerUrl = null
    await running?.close()
  }

  return {
    status,
    stop,
    async configure(next) {
      config = listenerConfigSchema.parse(next)
      options.save(config)
      await stop()
      error = null
      if (!config.enabled) return status()
      const hostGuard = createHostGuard(config.host)
      const app = createHttpApp({ service: options.service(), version: options.version, hostGuard, uiRoot: options.uiRoot, runtime: options.runtime })
      try {
        listener = await startListener(app, { host: config.host, port: config.port, hostGuard })
        options.runtime.listenerUrl = listener.url
      } catch (e) {
        if (!(e instanceof ListenError)) throw e
        error = e.message.replace(/; choose another with --port$/, ': choose another port')
      }
      return status()
    },
  }
}
