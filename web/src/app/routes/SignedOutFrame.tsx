import { Center, Group, Stack, Text } from '@mantine/core';
import { IconHexagonLetterL } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The pages outside the console (sign-in, invitation and reset links): the product's logo, the page, the footer. */
export function SignedOutFrame({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Center mih="100dvh" p="md" bg="var(--mantine-color-gray-0)">
      <Stack align="center" gap="lg" w="100%">
        <Group gap={6} data-testid="product-logo">
          <IconHexagonLetterL size={36} stroke={1.5} color="var(--mantine-color-blue-6)" />
          <Text fw={700} size="xl">
            {t('app.name')}
          </Text>
        </Group>
        {children}
        <Text size="xs" c="dimmed" component="footer">
          {t('footer.poweredBy', { year: new Date().getFullYear() })}
        </Text>
      </Stack>
    </Center>
  );
}
