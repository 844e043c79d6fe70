import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { readRecords, type SourceRecord } from './record-readers'

async function all(input: Readable): Promise<SourceRecord[]> {
  const out: SourceRecord[] = []
  for await (const group of readRecords(input, 'ndjson')) out.push(...group)
  return out
}

describe('reading NDJSON', () => {
  it('numbers lines across chunks, with CRLF, a BOM, blank lines and no final newline', async () => {
    const text = '\uFEFF{"a":1}\r\n\r\n{"b":"é"}\n{"c":3}'
    const bytes = Buffer.from(text)
    // Every split point, multi-byte "é" included.
    for (let cut = 1; cut < bytes.length; cut++) {
      const records = await all(Readable.from([bytes.subarray(0, cut), bytes.subarray(cut)]))
      expect(records).toEqual([
        { line: 1, value: { a: 1 } },
        { line: 3, value: { b: 'é' } },
        { line: 4, value: { c: 3 } },
      ])
    }
  })

  it('joins a line that spans many chunks, byte by byte, multi-byte characters included', async () => {
    const bytes = Buffer.from('{"a":"ü€𝄞"}\n{"b":"日本"}')
    const records = await all(Readable.from([...bytes].map((b) => Buffer.from([b]))))
    expect(records).toEqual([
      { line: 1, value: { a: 'ü€𝄞' } },
      { line: 2, value: { b: '日本' } },
    ])
  })

  it('fails on a file with no JSON line among its first hundred, naming where it went wrong', async () => {
    const csv = ['id,tenant_id,log_type', ...Array.from({ length: 150 }, (_, i) => `${i},t,llm`)].join('\n')
    await expect(all(Readable.from([Buffer.from(csv)]))).rejects.toThrow(
      /^line 1: not valid JSON: .*, nor is any of the next 99 lines: not NDJSON \(one JSON record per line\)$/,
    )
    const lateJson = [...Array.from({ length: 100 }, () => 'garbage'), '{"a":1}'].join('\n')
    await expect(all(Readable.from([Buffer.from(lateJson)]))).rejects.toThrow(/nor is any of the next 99 lines/)
    // Blank lines are not lines of records; a short file is judged on what it has.
    await expect(all(Readable.from([Buffer.from('\n\n{"a":\n')]))).rejects.toThrow(/^line 3: not valid JSON: .*, and it is the file's only line: not NDJSON/)
  })

  it('keeps bad lines as refused records once one line is JSON, however late', async () => {
    const text = [...Array.from({ length: 99 }, () => 'garbage'), '{"a":1}', 'more garbage'].join('\n')
    const records = await all(Readable.from([Buffer.from(text.slice(0, 500)), Buffer.from(text.slice(500))]))
    expect(records).toHaveLength(101)
    expect(records[99]).toEqual({ line: 100, value: { a: 1 } })
    expect(records.filter((r) => 'reason' in r).map((r) => r.line)).toEqual([...Array.from({ length: 99 }, (_, i) => i + 1), 101])
  })

  it('refuses a line too long to hold, without reading it, and goes on with the next', async () => {
    const huge = Buffer.alloc(17 * 1024 * 1024, 'x')
    const chunks = [Buffer.from('{"a":1}\n{"s":"'), huge, Buffer.from('"}\n{"b":2}\n')]
    const records = await all(Readable.from(chunks))
    expect(records).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 2, reason: 'longer than 16,777,216 bytes, not read' },
      { line: 3, value: { b: 2 } },
    ])
  })
})
