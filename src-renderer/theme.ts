import { createTheme } from '@mantine/core'

/** A calm, dense operations console: small default sizes, neutral greys, one accent. */
export const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'sm',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans Arabic", "Noto Sans Devanagari", sans-serif',
  fontFamilyMonospace: 'ui-monospace, "SF Mono", Menlo, Consolas, monospace',
  components: {
    Table: { defaultProps: { verticalSpacing: 4, horizontalSpacing: 'sm', fz: 'sm' } },
    Badge: { defaultProps: { radius: 'sm', variant: 'light' } },
  },
})
