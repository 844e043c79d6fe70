import { describe, expect, it } from 'vitest'
import { ArrayFormatError, JsonArraySplitter } from './json-array-splitter'

/** Feeds the text in chunks of `size` characters and collects every element. */
function split(text: string, size = text.length) {
  const splitter = new JsonArraySplitter()
  const out = []
  for (let i = 0; i < text.length; i += size) out.push(...splitter.push(text.slice(i, i + size)))
  splitter.end()
  return out
}

describe('JsonArraySplitter', () => {
  const text = '[\n  {"a": "x,]}\\"{"},\n  {"b": [1, {"c": 2}]},\n  42, "s", null\n]\n'

  it('yields each element with its starting line, whatever the chunk size', () => {
    const expected = [
      { line: 2, text: '{"a": "x,]}\\"{"}' },
      { line: 3, text: '{"b": [1, {"c": 2}]}' },
      { line: 4, text: '42' },
      { line: 4, text: '"s"' },
      { line: 4, text: 'null' },
    ]
    for (const size of [1, 2, 3, 7, 1000]) expect(split(text, size)).toEqual(expected)
    expect(JSON.parse(split(text, 3)[0]!.text)).toEqual({ a: 'x,]}"{' })
  })

  it('delivers the elements before a format error, then raises it', () => {
    const splitter = new JsonArraySplitter()
    expect(splitter.push('[1, 2 3]').map((e) => e.text)).toEqual(['1', '2'])
    expect(() => splitter.end()).toThrow('expected "," or "]"')
  })

  it('reads an empty array', () => {
    expect(split(' [ ] ')).toEqual([])
  })

  it('refuses what is not an array, or an array left open, with the line', () => {
    expect(() => split('{"a": 1}')).toThrow(new ArrayFormatError(1, 'expected a JSON array ("[")'))
    expect(() => split('[{"a": 1},\n{"b": 2}')).toThrow('line 2: the array is not closed')
    expect(() => split('[{"a": 1} {"b": 2}]')).toThrow('expected "," or "]"')
    expect(() => split('[1,]')).toThrow('expected a value')
    expect(() => split('[1]\nx')).toThrow('line 2: unexpected text after the end of the array')
    expect(() => split('')).toThrow('the file is empty')
  })
})
