import { DEFAULT_THEME, defaultCssVariablesResolver, mergeMantineTheme } from '@mantine/core'
import { describe, expect, it } from 'vitest'
import { cssVariablesResolver, mixColors, textOn, theme } from './theme'

// The CSS variables the console's MantineProvider emits (Mantine's defaults, then ours over them),
// read back per colour scheme and checked for WCAG 2.1 AA contrast (4.5:1) where components draw
// text with them. The ratio is computed here, independently of theme.ts.

const merged = mergeMantineTheme(DEFAULT_THEME, theme)
const defaults = defaultCssVariablesResolver(merged)
const ours = cssVariablesResolver(merged)

function variables(scheme: 'light' | 'dark'): Record<string, string> {
  return { ...defaults.variables, ...defaults[scheme], ...ours.variables, ...ours[scheme] }
}

/** A variable's value as a colour, following var() references. */
function resolve(vars: Record<string, string>, value: string): string {
  const ref = /^var\((--[\w-]+)\)$/.exec(value.trim())
  if (!ref) return value
  const next = vars[ref[1]!]
  if (next === undefined) throw new Error(`${ref[1]} is not defined`)
  return resolve(vars, next)
}

function rgb(color: string): [number, number, number] {
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(color)
  if (short) return [1, 2, 3].map((i) => parseInt(short[i]!.repeat(2), 16)) as [number, number, number]
  const hex = /^#([0-9a-f]{6})$/i.exec(color)
  if (hex) return [0, 2, 4].map((i) => parseInt(hex[1]!.slice(i, i + 2), 16)) as [number, number, number]
  const fn = /^rgba?\((\d+),\s*(\d+),\s*(\d+)(?:,\s*1)?\)$/.exec(color)
  if (fn) return [Number(fn[1]), Number(fn[2]), Number(fn[3])]
  throw new Error(`not an opaque colour: ${color}`)
}

const luminance = (color: string) => {
  const [r, g, b] = rgb(color).map((c) => {
    const s = c / 255
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  }) as [number, number, number]
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

const ratio = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (hi + 0.05) / (lo + 0.05)
}

const COLORS = Object.keys(merged.colors).filter((c) => c !== 'dark')

/** [what, text variable or colour, background variable or colour] pairs Mantine draws. */
function pairs(scheme: 'light' | 'dark'): Array<[string, string, string]> {
  const surfaces = scheme === 'light' ? ['--mantine-color-body', '--mantine-color-default-hover', '--mantine-color-gray-1'] : ['--mantine-color-body', '--mantine-color-default', '--mantine-color-default-hover']
  const list: Array<[string, string, string]> = []
  for (const surface of surfaces) {
    list.push(['body text', '--mantine-color-text', surface], ['dimmed text', '--mantine-color-dimmed', surface], ['placeholder', '--mantine-color-placeholder', surface])
    list.push(['link', '--mantine-color-anchor', surface], ['error', '--mantine-color-error', surface])
    for (const c of COLORS) list.push([`${c} text`, `--mantine-color-${c}-text`, surface], [`${c} outline`, `--mantine-color-${c}-outline`, surface])
  }
  for (const c of COLORS) {
    list.push([`${c} light`, `--mantine-color-${c}-light-color`, `--mantine-color-${c}-light`])
    list.push([`${c} filled`, '--mantine-color-white', `--mantine-color-${c}-filled`], [`${c} filled hover`, '--mantine-color-white', `--mantine-color-${c}-filled-hover`])
  }
  // Dimmed text in a transcript's bubbles and in blue alerts.
  for (const c of [merged.primaryColor, 'blue']) list.push([`dimmed on ${c} light`, '--mantine-color-dimmed', `--mantine-color-${c}-light`])
  return list
}

describe('theme colours', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`meet 4.5:1 wherever text is drawn with them, ${scheme} scheme`, () => {
      const vars = variables(scheme)
      const failing = pairs(scheme)
        .map(([what, fg, bg]) => {
          const f = resolve(vars, `var(${fg})`)
          const b = resolve(vars, `var(${bg})`)
          return { what, fg: f, bg: b, ratio: Math.round(ratio(f, b) * 100) / 100 }
        })
        .filter((p) => p.ratio < 4.5)
      expect(failing).toEqual([])
    })
  }

  it('keeps dimmed text dimmer than body text in both schemes', () => {
    for (const scheme of ['light', 'dark'] as const) {
      const vars = variables(scheme)
      const body = luminance(resolve(vars, 'var(--mantine-color-body)'))
      const distance = (v: string) => Math.abs(luminance(resolve(vars, `var(${v})`)) - body)
      expect(distance('--mantine-color-dimmed')).toBeLessThan(distance('--mantine-color-text'))
    }
  })

  it('sets text on a blended colour (the transfer matrix) in black or white, readable at every depth', () => {
    expect(mixColors('#4c6ef5', '#fff', 0.5)).toBe('#a6b7fa')
    expect(mixColors('#4c6ef5', '#2e2e2e', 1)).toBe('#4c6ef5')
    const failing: string[] = []
    for (const backdrop of [merged.white, merged.colors.dark[6]!]) {
      for (let i = 0; i <= 100; i++) {
        const background = mixColors(merged.colors.indigo[6]!, backdrop, i / 100)
        if (ratio(textOn(background), background) < 4.5) failing.push(background)
      }
    }
    expect(failing).toEqual([])
  })
})
