import type { ShownGroup } from './count-by-groups'

/*
 * The count-by chart as a PNG, with no library: the chart's SVG cloned with the styles the page
 * computed for it written inline (its colours come from CSS variables and classes a lone SVG file
 * does not have), drawn onto a canvas at twice its size over the page's background, with a title
 * and the legend (HTML on the page) drawn beside it. The SVG goes in as a data: URL, which the
 * console's Content-Security-Policy allows for images, and keeps the canvas exportable.
 */

const STYLED = ['fill', 'stroke', 'stroke-width', 'stroke-dasharray', 'opacity', 'fill-opacity', 'stroke-opacity', 'font-family', 'font-size', 'font-weight', 'text-anchor', 'dominant-baseline', 'visibility', 'display'] as const

function inlineStyles(source: Element, target: Element): void {
  const computed = getComputedStyle(source)
  const style = STYLED.map((p) => `${p}:${computed.getPropertyValue(p)}`).join(';')
  target.setAttribute('style', style)
  for (let i = 0; i < source.children.length; i++) inlineStyles(source.children[i]!, target.children[i]!)
}

function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image()
    image.onload = () => resolve(image)
    image.onerror = () => reject(new Error('The chart could not be drawn as an image'))
    image.src = url
  })
}

const SCALE = 2
const PAD = 16
const TITLE_H = 28
const LEGEND_ROW = 20

/** The chart in `container` (its first SVG) as PNG bytes, titled, with its legend below. */
export async function chartPng(container: HTMLElement, title: string, groups: ShownGroup[]): Promise<Blob> {
  const svg = container.querySelector('svg.recharts-surface') ?? container.querySelector('svg')
  if (!svg) throw new Error('There is no chart to save yet')
  const { width, height } = svg.getBoundingClientRect()
  const clone = svg.cloneNode(true) as SVGSVGElement
  inlineStyles(svg, clone)
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg')
  clone.setAttribute('width', String(width))
  clone.setAttribute('height', String(height))
  const image = await loadImage(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(new XMLSerializer().serializeToString(clone))}`)

  const page = getComputedStyle(document.body)
  const font = page.getPropertyValue('font-family')
  const canvas = document.createElement('canvas')
  const context = canvas.getContext('2d')
  if (!context) throw new Error('This browser cannot draw the chart as an image')
  // The legend wraps within the chart's width.
  context.font = `12px ${font}`
  const rows: ShownGroup[][] = [[]]
  let x = 0
  for (const g of groups) {
    const w = 18 + context.measureText(g.label).width + 16
    if (x + w > width && rows.at(-1)!.length > 0) {
      rows.push([])
      x = 0
    }
    rows.at(-1)!.push(g)
    x += w
  }
  canvas.width = (width + 2 * PAD) * SCALE
  canvas.height = (TITLE_H + height + rows.length * LEGEND_ROW + 2 * PAD) * SCALE
  context.scale(SCALE, SCALE)
  context.fillStyle = page.getPropertyValue('background-color') || '#fff'
  context.fillRect(0, 0, canvas.width, canvas.height)
  context.fillStyle = page.getPropertyValue('color') || '#000'
  context.font = `600 14px ${font}`
  context.textBaseline = 'middle'
  context.fillText(title, PAD, PAD + TITLE_H / 2 - 4, width)
  context.drawImage(image, PAD, PAD + TITLE_H, width, height)
  context.font = `12px ${font}`
  rows.forEach((row, r) => {
    let at = PAD
    const y = PAD + TITLE_H + height + r * LEGEND_ROW + LEGEND_ROW / 2
    for (const g of row) {
      context.fillStyle = g.color
      context.fillRect(at, y - 6, 12, 12)
      context.fillStyle = page.getPropertyValue('color') || '#000'
      context.fillText(g.label, at + 18, y)
      at += 18 + context.measureText(g.label).width + 16
    }
  })
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The image could not be made'))), 'image/png'))
}

/** Saves a blob under a name through a link, as the log export does. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.click()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
