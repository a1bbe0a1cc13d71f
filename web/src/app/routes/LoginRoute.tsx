import { Center, Group, Stack, Text } from '@mantine/core';
import { IconHexagonLetterL } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { LoginForm } from '../../features/auth';

export function LoginRoute() {
  const { t } = useTranslation();
  return (
    <Center mih="100dvh" p="md" bg="var(--mantine-color-gray-0)">
      <Stack align="center" gap="lg" w="100%">
        <Group gap={6}>
          <IconHexagonLetterL size={36} stroke={1.5} color="var(--mantine-color-blue-6)" />
          <Text fw={700} size="xl">
            {t('app.name')}
          </Text>
        </Group>
        <LoginForm />
        <Text size="xs" c="dimmed" component="footer">
          {t('footer.poweredBy', { year: new Date().getFullYear() })}
        </Text>
      </Stack>
    </Center>
  );
}
