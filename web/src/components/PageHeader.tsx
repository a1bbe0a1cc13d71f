import { Anchor, Box, Breadcrumbs, Group, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export interface Crumb {
  label: ReactNode;
  /** Link target; the last crumb is usually the current page and has none. */
  to?: string;
}

export interface PageHeaderProps {
  title?: ReactNode;
  subtitle?: ReactNode;
  /** Crumbs after Dashboard (which is always first). */
  breadcrumbs?: Crumb[];
  /** Optional action area on the right. */
  actions?: ReactNode;
  hideBreadcrumbs?: boolean;
  hideTitle?: boolean;
  /** Smaller style for a sub-section header. */
  sub?: boolean;
  /** data-testid of the title (defaults to page-title). */
  titleTestId?: string;
}

/** Page header (docs/reference/console.md): breadcrumbs starting at Dashboard, title, subtitle, actions. */
export function PageHeader({
  title,
  subtitle,
  breadcrumbs = [],
  actions,
  hideBreadcrumbs,
  hideTitle,
  sub,
  titleTestId = 'page-title',
}: PageHeaderProps) {
  const { t } = useTranslation();
  const documentTitle = !sub && typeof title === 'string' ? title : null;
  useEffect(() => {
    if (documentTitle) document.title = `${documentTitle} · ${t('app.name')}`;
  }, [documentTitle, t]);
  const crumbs = [{ label: t('nav.dashboard'), to: '/' } as Crumb, ...breadcrumbs].map((crumb, position) => ({
    ...crumb,
    position,
    key: `${position}:${crumb.to ?? ''}`,
  }));
  return (
    <Box component="header" mb={sub ? 'sm' : 'lg'} data-testid={sub ? 'page-subheader' : 'page-header'}>
      {!hideBreadcrumbs && !sub && (
        <Breadcrumbs mb="xs" data-testid="breadcrumbs" aria-label="Breadcrumb" separatorMargin={6}>
          {crumbs.map((crumb) => {
            const last = crumb.position === crumbs.length - 1;
            return crumb.to && !last ? (
              <Anchor key={crumb.key} component={Link} to={crumb.to} size="sm">
                {crumb.label}
              </Anchor>
            ) : (
              <Text key={crumb.key} size="sm" c="dimmed" aria-current={last ? 'page' : undefined}>
                {crumb.label}
              </Text>
            );
          })}
        </Breadcrumbs>
      )}
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="md">
        <Stack gap={4} style={{ minWidth: 0 }}>
          {!hideTitle && title !== undefined && (
            <Title order={sub ? 3 : 2} data-testid={titleTestId}>
              {title}
            </Title>
          )}
          {subtitle !== undefined && (
            <Text c="dimmed" size={sub ? 'sm' : 'md'}>
              {subtitle}
            </Text>
          )}
        </Stack>
        {actions && (
          <Group gap="xs" wrap="nowrap" data-testid="page-actions">
            {actions}
          </Group>
        )}
      </Group>
    </Box>
  );
}
