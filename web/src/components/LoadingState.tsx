import { Center, Group, Loader, Text } from '@mantine/core';

/** A small loader with a text, centred (lists, tables, dialogs and pages while their data loads). */
export function LoadingState({
  text,
  testId,
  py = 'lg',
}: {
  text: string;
  testId: string;
  py?: 'lg' | 'xl';
}) {
  return (
    <Center py={py} data-testid={testId}>
      <Group gap="xs">
        <Loader size="sm" />
        <Text c="dimmed" size="sm">
          {text}
        </Text>
      </Group>
    </Center>
  );
}
