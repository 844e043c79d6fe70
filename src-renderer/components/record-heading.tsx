import { Code, Group } from '@mantine/core'
import type { ReactNode } from 'react'
import { BreadcrumbTitle } from './breadcrumb-title'

interface RecordHeadingProps {
  crumbs: Array<{ to: string; label: ReactNode }>
  title: ReactNode
  titleTestId?: string
  /** The record's id, shown at the right. */
  id: string
  /** Badges shown after the title. */
  children?: ReactNode
}

/** One record's page heading (an agent, a tenant): the breadcrumb title on the left, the record's id on the right. */
export function RecordHeading({ crumbs, title, titleTestId, id, children }: RecordHeadingProps) {
  return (
    <Group justify="space-between">
      <BreadcrumbTitle crumbs={crumbs} title={title} titleTestId={titleTestId}>
        {children}
      </BreadcrumbTitle>
      <Code>{id}</Code>
    </Group>
  )
}
