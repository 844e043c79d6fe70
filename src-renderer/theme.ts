import { Code, type CSSVariablesResolver, createTheme, darken, Drawer, lighten, luminance, Modal, type MantineTheme, Pagination } from '@mantine/core'

/** A calm, dense operations console: small default sizes, neutral greys, one accent. */
export const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'sm',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans Arabic", "Noto Sans Devanagari", sans-serif',
  fontFamilyMonospace: 'ui-monospace, "SF Mono", Menlo, Consolas, monospace',
  // Drawers, modals and collapses appear at once for people who ask their system for less motion.
  respectReducedMotion: true,
  components: {
    Table: { defaultProps: { verticalSpacing: 4, horizontalSpacing: 'sm', fz: 'sm' } },
    Badge: { defaultProps: { radius: 'sm', variant: 'light' } },
    // Icon-only controls get a name screen readers can say.
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    Drawer: Drawer.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    Pagination: Pagination.extend({
      defaultProps: { getControlProps: (control) => ({ 'aria-label': `${control[0]!.toUpperCase()}${control.slice(1)} page` }) },
    }),
    // Blocks of JSON and ids wrap instead of scrolling sideways: a scrolled region would need a tab stop of its own.
    Code: Code.extend({ styles: (_theme, props) => (props.block ? { root: { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' } } : {}) }),
  },
})

// Colour contrast (WCAG 2.1 AA, 1.4.3): text needs 4.5:1 against what it is drawn on. Mantine's
// defaults miss it in several places: dimmed text (gray.6 on white, 3.3:1; dark.2 on dark.6,
// 3.5:1), links and filled buttons in indigo.6 (4.3:1), light badges in green and teal, outline
// badges in gray. Rather than patch each page, the colour variables every component reads are
// chosen here, for both colour schemes, as the first shade (Mantine's own where it passes) that
// reaches AA on every surface it is used on. theme.test.ts checks each pair.

/** The ratio WCAG 2 asks of normal-size text (level AA). */
export const AA = 4.5

/** WCAG 2 contrast ratio of two colours (hex or rgba()). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (light + 0.05) / (dark + 0.05)
}

/** The first candidate that reaches AA against every background. */
function firstReadable(candidates: string[], backgrounds: string[]): string {
  const found = candidates.find((c) => backgrounds.every((b) => contrastRatio(c, b) >= AA))
  if (!found) throw new Error(`no readable colour among ${candidates.join(', ')} on ${backgrounds.join(', ')}`)
  return found
}

/** A shade and ever darker (or lighter) steps beyond it, for hues whose palette stops short of AA. */
const STEPS = Array.from({ length: 14 }, (_, i) => (i + 1) * 0.05)
const darker = (color: string) => [color, ...STEPS.map((k) => darken(color, k))]
const lighter = (color: string) => [color, ...STEPS.map((k) => lighten(color, k))]

/** Where text sits in each scheme: the body, cards and inputs, and hovered or striped rows. */
export function surfaces(t: MantineTheme): { light: string[]; dark: string[] } {
  return { light: [t.white, t.colors.gray[0], t.colors.gray[1]], dark: [t.colors.dark[7], t.colors.dark[6], t.colors.dark[5]] }
}

/** Mantine's `light` variant backgrounds (and their hover) of a colour, per scheme. */
export const lightVariantBackgrounds = (shades: readonly string[]) => ({
  light: [shades[1]!, shades[2]!],
  dark: [darken(shades[9]!, 0.5), darken(shades[9]!, 0.3)],
})

/** The tints dimmed text is drawn on: the primary colour's (a transcript's bubbles, the selected log line), blue and gray alerts. */
export const dimmedTints = (t: MantineTheme) => [t.primaryColor, 'blue', 'gray'].map((name) => lightVariantBackgrounds(t.colors[name]!))

/** Secondary ("dimmed") text, also the placeholder: the nearest grey to Mantine's that is readable on the surfaces and the tints it sits on. */
export function dimmedColors(t: MantineTheme): { light: string; dark: string } {
  // The tints themselves, not their hover shade: dimmed text sits in alerts and bubbles, not in hovered buttons.
  const tints = dimmedTints(t)
  const s = surfaces(t)
  return {
    light: firstReadable(darker(t.colors.gray[6]!), [...s.light, ...tints.map((x) => x.light[0]!)]),
    dark: firstReadable(lighter(t.colors.dark[2]!), [...s.dark, ...tints.map((x) => x.dark[0]!)]),
  }
}

/** The colour variables of one palette colour, per scheme, each readable where Mantine draws it. */
export function readableColorVariables(t: MantineTheme, name: string): { light: Record<string, string>; dark: Record<string, string> } {
  const shades = t.colors[name]!
  const s = surfaces(t)
  const tint = lightVariantBackgrounds(shades)
  const v = (suffix: string) => `--mantine-color-${name}-${suffix}`
  // Text in the colour (c="red", links, outline badges): on the page's surfaces.
  const lightText = firstReadable([...shades.slice(6), ...darker(shades[9]!)], s.light)
  const darkText = firstReadable([...[4, 3, 2, 1, 0].map((i) => shades[i]!), ...lighter(shades[0]!)], s.dark)
  // Filled buttons and badges carry white text; their hover is a step darker.
  const lightFilled = firstReadable([...shades.slice(6), ...darker(shades[9]!)], [t.white])
  const darkFilled = firstReadable([...shades.slice(8), ...darker(shades[9]!)], [t.white])
  // Light badges and subtle buttons: on their tint, its hover, and (subtle) the bare surface.
  const lightOnTint = firstReadable(darker(shades[9]!), [...tint.light, ...s.light])
  const darkOnTint = firstReadable(lighter(shades[0]!), [...tint.dark, ...s.dark])
  return {
    light: {
      [v('text')]: lightText,
      [v('outline')]: lightText,
      [v('filled')]: lightFilled,
      [v('filled-hover')]: darken(lightFilled, 0.1),
      [v('light-color')]: lightOnTint,
    },
    dark: {
      [v('text')]: darkText,
      [v('outline')]: darkText,
      [v('filled')]: darkFilled,
      [v('filled-hover')]: darken(darkFilled, 0.1),
      [v('light-color')]: darkOnTint,
    },
  }
}

/** Mantine's colour variables, made readable (see above); passed to MantineProvider beside the theme. */
export const cssVariablesResolver: CSSVariablesResolver = (t) => {
  const light: Record<string, string> = {}
  const dark: Record<string, string> = {}
  for (const name of Object.keys(t.colors)) {
    if (name === 'dark') continue
    const vars = readableColorVariables(t, name)
    Object.assign(light, vars.light)
    Object.assign(dark, vars.dark)
  }
  const dimmed = dimmedColors(t)
  const primary = t.primaryColor
  return {
    variables: {},
    light: {
      ...light,
      '--mantine-color-dimmed': dimmed.light,
      '--mantine-color-placeholder': dimmed.light,
      '--mantine-color-anchor': `var(--mantine-color-${primary}-text)`,
      '--mantine-color-error': 'var(--mantine-color-red-text)',
    },
    dark: {
      ...dark,
      '--mantine-color-dimmed': dimmed.dark,
      '--mantine-color-placeholder': dimmed.dark,
      '--mantine-color-anchor': `var(--mantine-color-${primary}-text)`,
      '--mantine-color-error': 'var(--mantine-color-red-text)',
    },
  }
}

/** `color` laid over `backdrop` at `amount` opacity, as an opaque hex colour. */
export function mixColors(color: string, backdrop: string, amount: number): string {
  const channels = (hex: string) => {
    const full = hex.length === 4 ? `#${[...hex.slice(1)].map((d) => d + d).join('')}` : hex
    return [1, 3, 5].map((i) => parseInt(full.slice(i, i + 2), 16))
  }
  const [c, b] = [channels(color), channels(backdrop)]
  return `#${c.map((v, i) => Math.round(v * amount + b[i]! * (1 - amount)).toString(16).padStart(2, '0')).join('')}`
}

/** Black or white, whichever reads better on `background` (one of them always reaches 4.5:1). */
export const textOn = (background: string): string => (contrastRatio('#ffffff', background) >= contrastRatio('#000000', background) ? '#ffffff' : '#000000')
