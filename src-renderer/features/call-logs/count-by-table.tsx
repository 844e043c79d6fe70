import { Box, Table, Text, UnstyledButton, VisuallyHidden } from '@mantine/core'
import type { CallLogCountBy } from '../../../src-shared/schemas/call-log-count-by'
import { formatNumber } from '../../lib/format'
import type { ShownGroup } from './count-by-groups'

const pct = (rate: number) => `${(rate * 100).toFixed(1)} %`

interface CountByTableProps {
  answer: CallLogCountBy
  groups: ShownGroup[]
  /** Filters the view in to a group (its query term). */
  onPick: (group: ShownGroup) => void
}

/**
 * The top groups with their lines, share of all matching lines, error lines (levels error and
 * critical) and error rate: "error rate by provider" read off one row each. A group's name filters
 * in to it, as a facet value does.
 */
export function CountByTable({ answer, groups, onPick }: CountByTableProps) {
  return (
    <Table.ScrollContainer minWidth={480}>
      <Table striped withTableBorder verticalSpacing={2} fz="xs" data-testid="count-by-table">
        <Table.Caption>
          {`${formatNumber(answer.total)} matching lines by ${answer.by}; ${formatNumber(answer.errors)} at level error or critical (${pct(answer.total > 0 ? answer.errors / answer.total : 0)}).`}
        </Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{answer.by}</Table.Th>
            <Table.Th ta="right">Lines</Table.Th>
            <Table.Th ta="right">Share</Table.Th>
            <Table.Th ta="right">Errors</Table.Th>
            <Table.Th ta="right">Error rate</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {groups.map((g) => (
            <Table.Tr key={g.key} data-testid="count-by-row">
              <Table.Td>
                <Box style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
                  <Box aria-hidden w={10} h={10} style={{ background: g.color, borderRadius: 2, flex: 'none' }} />
                  {g.term ? (
                    <UnstyledButton className="count-by-group" onClick={() => onPick(g)} title={`Filter in ${g.term}`} fz="xs" td="underline">
                      <VisuallyHidden>{`Filter in ${answer.by} `}</VisuallyHidden>
                      {g.label}
                    </UnstyledButton>
                  ) : (
                    <Text span fz="xs" fs={g.kind === 'value' ? undefined : 'italic'}>
                      {g.label}
                    </Text>
                  )}
                </Box>
              </Table.Td>
              <Table.Td ta="right" className="count-by-lines">{formatNumber(g.count)}</Table.Td>
              <Table.Td ta="right">{pct(g.share)}</Table.Td>
              <Table.Td ta="right">{formatNumber(g.errors)}</Table.Td>
              <Table.Td ta="right">{pct(g.errorRate)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
}
