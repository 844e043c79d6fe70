import { describe, expect, it } from 'vitest'
import type { CallLogCountBy } from '../../../src-shared/schemas/call-log-count-by'
import { COUNT_BY_PALETTE, countByCsv, csvField, OTHER_COLOR, shownGroups } from './count-by-groups'

const group = (o: Partial<CallLogCountBy['groups'][number]>): CallLogCountBy['groups'][number] => ({ kind: 'value', value: 'x', name: null, name_shared: false, count: 1, errors: 0, ...o })
const answer = (by: string, groups: CallLogCountBy['groups']): CallLogCountBy => ({
  by,
  top: 5,
  bucket_seconds: 3600,
  from: '2026-11-20T00:00:00.000Z',
  to: '2026-11-20T01:59:59.999Z',
  total: groups.reduce((n, g) => n + g.count, 0),
  errors: groups.reduce((n, g) => n + g.errors, 0),
  groups,
  buckets: [
    { start: '2026-11-20T00:00:00.000Z', counts: groups.map((g) => Math.floor(g.count / 2)) },
    { start: '2026-11-20T01:00:00.000Z', counts: groups.map((g) => g.count - Math.floor(g.count / 2)) },
  ],
})

describe('count-by groups as shown', () => {
  it('labels, colours and filter terms of details values, none and other', () => {
    const shown = shownGroups(answer('details.status', [group({ value: 429, count: 6, errors: 3 }), group({ value: '429', count: 4 }), group({ kind: 'none', value: null, count: 2 }), group({ value: null, count: 1 }), group({ kind: 'other', value: null, count: 7 })]))
    expect(shown.map((g) => [g.label, g.term, g.color])).toEqual([
      ['429', 'details.status:429', COUNT_BY_PALETTE[0]],
      ['429', 'details.status:"429"', COUNT_BY_PALETTE[1]],
      ['(none)', '-details.status:*', COUNT_BY_PALETTE[2]],
      ['null', 'details.status:null', COUNT_BY_PALETTE[3]],
      ['other', null, OTHER_COLOR],
    ])
    expect([shown[0]!.share, shown[0]!.errorRate]).toEqual([0.3, 0.5])
  })

  it('filters a tenant by name unless another has it, and an agent-less group not at all', () => {
    const shown = shownGroups(answer('agent', [group({ value: 'a1', name: 'Aria', count: 3 }), group({ value: 'b2222222-x', name: 'Bo', name_shared: true }), group({ kind: 'none', value: null })]))
    expect(shown.map((g) => [g.label, g.term])).toEqual([['Aria', 'agent:Aria'], ['Bo · b2222222', 'agent:b2222222-x'], ['(none)', null]])
  })

  it('writes the table and the series as CSV, formulas neutralised', () => {
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`)
    expect(csvField('-5')).toBe(`"'-5"`)
    expect(csvField('a,b')).toBe('"a,b"')
    const text = countByCsv(answer('details.provider', [group({ value: 'groq', count: 3, errors: 1 }), group({ kind: 'other', value: null, count: 1 })]), shownGroups(answer('details.provider', [group({ value: 'groq', count: 3, errors: 1 }), group({ kind: 'other', value: null, count: 1 })])))
    expect(text).toBe(
      'details.provider,value,lines,share_pct,errors,error_rate_pct\r\ngroq,groq,3,75,1,33.33\r\nother,,1,25,0,0\r\n\r\n' +
        'bucket_start,groq,other\r\n2026-11-20T00:00:00.000Z,1,0\r\n2026-11-20T01:00:00.000Z,2,1\r\n',
    )
  })
})
