import type { App } from '@llmor/contracts';
import { Badge, Card, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EntityIcon } from '../../../components/EntityIcon';
import { RelativeTime } from '../../../components/RelativeTime';

/** One app in the grid: icon or initials, app_key badge, name, description, age, creator (docs/reference/console.md). */
export function AppCard({ app }: { app: App }) {
  const { t } = useTranslation();
  const creator = app.creator?.data?.firstname || t('apps.list.unknownUser');
  return (
    <Card
      component={Link}
      to={`/apps/${app.id}/chat`}
      withBorder
      padding="lg"
      radius="md"
      data-testid="app-card"
      data-app-id={app.id}
      data-app-key={app.app_key}
      style={{ display: 'flex', flexDirection: 'column' }}
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap" mb="sm">
        <EntityIcon icon={app.meta?.data?.icon} name={app.name} size="lg" />
        <Badge variant="light" radius="sm" tt="none" data-testid="app-card-key">
          {app.app_key}
        </Badge>
      </Group>
      <Stack gap={4} style={{ flex: 1 }}>
        <Text fw={600} lineClamp={1} data-testid="app-card-name">
          {app.name}
        </Text>
        <Text size="sm" c="dimmed" lineClamp={2} data-testid="app-card-description">
          {app.description}
        </Text>
      </Stack>
      <Group justify="space-between" mt="md" gap="xs">
        <Text size="xs" c="dimmed" data-testid="app-card-created">
          <RelativeTime value={app.created_at} />
        </Text>
        <Text size="xs" c="dimmed" data-testid="app-card-creator">
          {creator}
        </Text>
      </Group>
    </Card>
  );
}
