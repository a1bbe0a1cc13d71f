import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconCheck, IconPlayerPause, IconX } from '@tabler/icons-react';
import { statusColor } from '../lib';
import { useFunctionLabels } from './labels';

/** A run status: -6 blue (breakpoint), positive green, anything else red (docs/reference/rules.md), with its label. */
export function StatusIcon({
  status,
  withLabel = true,
  testId,
}: {
  status: number;
  withLabel?: boolean;
  testId?: string;
}) {
  const labels = useFunctionLabels();
  const color = statusColor(status);
  const Icon = color === 'blue' ? IconPlayerPause : color === 'green' ? IconCheck : IconX;
  const label = labels.status(status);
  return (
    <Group gap={6} wrap="nowrap" data-testid={testId} data-status={status} data-color={color}>
      <ThemeIcon
        color={color}
        size="sm"
        radius="xl"
        variant="filled"
        aria-label={withLabel ? undefined : label}
      >
        <Icon size={12} stroke={2.5} />
      </ThemeIcon>
      {withLabel && (
        <Text size="sm" c={color} fw={500}>
          {label}
        </Text>
      )}
    </Group>
  );
}
