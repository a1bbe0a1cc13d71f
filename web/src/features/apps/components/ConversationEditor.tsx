import type { ConversationSample } from '@llmor/contracts';
import {
  ActionIcon,
  Avatar,
  Button,
  Group,
  Input,
  Paper,
  Stack,
  Text,
  Textarea,
  Tooltip,
} from '@mantine/core';
import { IconPlus, IconRobot, IconTrash, IconUser } from '@tabler/icons-react';
import { type ReactNode, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { cycleRole, nextRole } from '../lib';

export interface ConversationEditorProps {
  value: ConversationSample[];
  onChange(value: ConversationSample[]): void;
  label?: ReactNode;
  description?: ReactNode;
  /** Server errors by zero-based message index, and `value` for the list as a whole. */
  errors: Record<string, string>;
  testId: string;
}

/**
 * Sample messages (docs/reference/console.md Configuration): the avatar button cycles the role user → assistant → user;
 * a new message takes the role after the last one (starting with user); 'No items added yet.' when empty.
 */
export function ConversationEditor({
  value,
  onChange,
  label,
  description,
  errors,
  testId,
}: ConversationEditorProps) {
  const { t } = useTranslation();
  // Stable keys for the messages (they have no id): one per position, removed with its message.
  const ids = useRef<number[]>([]);
  const nextId = useRef(0);
  while (ids.current.length < value.length) ids.current.push(nextId.current++);
  if (ids.current.length > value.length) ids.current.length = value.length;
  const remove = (index: number) => {
    ids.current.splice(index, 1);
    onChange(value.filter((_, i) => i !== index));
  };
  const update = (index: number, patch: Partial<ConversationSample>) =>
    onChange(value.map((m, i) => (i === index ? { ...m, ...patch } : m)));

  return (
    <Input.Wrapper label={label} description={description} error={errors.value} data-testid={testId}>
      <Stack gap="xs" mt={4}>
        {value.length === 0 && (
          <Text size="sm" c="dimmed" data-testid={`${testId}-empty`}>
            {t('apps.parameters.noItems')}
          </Text>
        )}
        {value.map((message, index) => {
          const roleLabel = t(`apps.parameters.roles.${message.role}`);
          return (
            <Paper
              key={ids.current[index]}
              withBorder
              p="xs"
              radius="md"
              data-testid={`${testId}-item-${index}`}
              data-role={message.role}
            >
              <Group align="flex-start" wrap="nowrap" gap="sm">
                <Tooltip label={t('apps.parameters.switchRole', { role: roleLabel })}>
                  <ActionIcon
                    variant="transparent"
                    size="lg"
                    radius="xl"
                    onClick={() => update(index, { role: cycleRole(message.role) })}
                    aria-label={t('apps.parameters.switchRole', { role: roleLabel })}
                    data-testid={`${testId}-role-${index}`}
                  >
                    <Avatar color={message.role === 'user' ? 'blue' : 'teal'} radius="xl" size="md">
                      {message.role === 'user' ? <IconUser size={18} /> : <IconRobot size={18} />}
                    </Avatar>
                  </ActionIcon>
                </Tooltip>
                <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                  <Text size="xs" fw={600} c="dimmed">
                    {roleLabel}
                  </Text>
                  <Textarea
                    autosize
                    minRows={1}
                    maxRows={10}
                    aria-label={`${t('apps.parameters.message')} ${index + 1}`}
                    placeholder={t('apps.parameters.message')}
                    value={message.message}
                    onChange={(e) => update(index, { message: e.currentTarget.value })}
                    error={errors[String(index)]}
                    data-testid={`${testId}-message-${index}`}
                  />
                </Stack>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  onClick={() => remove(index)}
                  aria-label={t('apps.parameters.removeMessage')}
                  data-testid={`${testId}-remove-${index}`}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
            </Paper>
          );
        })}
        <Group>
          <Button
            variant="light"
            size="xs"
            leftSection={<IconPlus size={14} />}
            onClick={() => onChange([...value, { role: nextRole(value), message: '' }])}
            data-testid={`${testId}-add`}
          >
            {t('apps.parameters.addMessage')}
          </Button>
        </Group>
      </Stack>
    </Input.Wrapper>
  );
}
