import { IconArrowsExchange, IconBrain, IconMicrophone, IconNetwork, IconPhone, IconSettings, IconTool, IconVolume, IconWebhook } from '@tabler/icons-react'
import type { ComponentType } from 'react'

interface Kind {
  label: string
  /** A Mantine colour: the bar's fill. The kind's name is always written beside it, so colour is never the only sign. */
  color: string
  icon: ComponentType<{ size?: number; 'aria-hidden'?: boolean }>
}

const KINDS: Record<string, Kind> = {
  stt: { label: 'STT', color: 'teal', icon: IconMicrophone },
  llm: { label: 'LLM', color: 'violet', icon: IconBrain },
  tts: { label: 'TTS', color: 'blue', icon: IconVolume },
  tool: { label: 'Tool', color: 'orange', icon: IconTool },
  transfer: { label: 'Transfer', color: 'grape', icon: IconArrowsExchange },
  call: { label: 'Call', color: 'gray', icon: IconPhone },
  sip: { label: 'SIP', color: 'gray', icon: IconNetwork },
  webhook: { label: 'Webhook', color: 'gray', icon: IconWebhook },
}

/** How a span's kind (its lines' log_type) is shown; any other type gets its own name and a neutral look. */
export const spanKind = (kind: string): Kind => KINDS[kind] ?? { label: kind, color: 'gray', icon: IconSettings }
