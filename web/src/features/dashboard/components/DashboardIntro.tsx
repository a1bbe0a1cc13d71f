import { Badge, Card, Group, List, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBolt, IconCode, IconDatabase, IconPlug, IconVectorTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

const MODULES = [
  { key: 'sandbox', icon: IconCode },
  { key: 'plugins', icon: IconPlug },
  { key: 'relay', icon: IconBolt },
  { key: 'datastore', icon: IconDatabase },
  { key: 'vector', icon: IconVectorTriangle },
] as const;

/** The dashboard intro card (docs/reference/README.md): what the product is, very early alpha, its modules. */
export function DashboardIntro() {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="lg" radius="md" data-testid="dashboard-intro">
      <Group justify="space-between" mb="sm">
        <Title order={3}>{t('dashboard.introTitle')}</Title>
        <Badge color="orange" variant="light">
          {t('dashboard.alpha')}
        </Badge>
      </Group>
      <Text mb="md">{t('dashboard.intro')}</Text>
      <Title order={4} mb="xs">
        {t('dashboard.modulesTitle')}
      </Title>
      <List spacing="sm" center>
        {MODULES.map(({ key, icon: Icon }) => (
          <List.Item
            key={key}
            icon={
              <ThemeIcon size={24} radius="xl" variant="light">
                <Icon size={14} />
              </ThemeIcon>
            }
          >
            {t(`dashboard.modules.${key}`)}
          </List.Item>
        ))}
      </List>
    </Card>
  );
}
