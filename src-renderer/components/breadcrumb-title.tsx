import { Anchor, Group, Text, Title } from '@mantine/core'
import { Fragment, type ReactNode } from 'react'
import { Link } from 'react-router'

interface BreadcrumbTitleProps {
  /** The pages above this one, outermost first. */
  crumbs: Array<{ to: string; label: ReactNode }>
  title: ReactNode
  titleTestId?: string
  wrap?: 'wrap' | 'nowrap'
  /** Badges and links shown after the title. */
  children?: ReactNode
}

/** A detail page's heading: `Agents / Aria · Reception` with links up, then the page's own badges. */
export function BreadcrumbTitle({ crumbs, title, titleTestId, wrap = 'wrap', children }: BreadcrumbTitleProps) {
  return (
    <Group gap="sm" wrap={wrap}>
      {crumbs.map((crumb) => (
        <Fragment key={crumb.to}>
          <Anchor component={Link} to={crumb.to} size="sm">
            {crumb.label}
          </Anchor>
          <Text c="dimmed">/</Text>
        </Fragment>
      ))}
      <Title order={3} data-testid={titleTestId}>
        {title}
      </Title>
      {children}
    </Group>
  )
}
