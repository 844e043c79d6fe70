import { describe, expect, it } from 'vitest'
import { closeMatches, editDistance } from './similarity'

describe('editDistance', () => {
  it.each([
    ['', '', 0],
    ['abc', '', 3],
    ['kitten', 'sitting', 3],
    ['nova-3', 'nova-2', 1],
    ['flaw', 'lawn', 2],
  ])('%j → %j is %i', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d)
    expect(editDistance(b, a)).toBe(d)
  })
})

describe('closeMatches', () => {
  const deepgram = ['nova-3', 'nova-2', 'flux-general-en']
  it('suggests near misses best first, case-insensitively', () => {
    expect(closeMatches('nova-4', deepgram)).toEqual(['nova-2', 'nova-3'])
    expect(closeMatches('Nova-3', deepgram)[0]).toBe('nova-3')
    expect(closeMatches('nova3', deepgram)[0]).toBe('nova-3')
  })
  it('suggests ids containing the input', () => {
    expect(closeMatches('flux', deepgram)).toEqual(['flux-general-en'])
  })
  it('suggests nothing for unrelated, empty or absurdly long input', () => {
    expect(closeMatches('whisper-large', deepgram)).toEqual([])
    expect(closeMatches('', deepgram)).toEqual([])
    expect(closeMatches('n'.repeat(500), deepgram)).toEqual([])
  })
})
