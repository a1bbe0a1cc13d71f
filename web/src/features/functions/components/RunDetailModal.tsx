import { Button, Code, Group, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/LoadError';
import { LoadingState } from '../../../components/LoadingState';
import { formatBytes } from '../../../lib/format/bytes';
import { formatDateTime } from '../../../lib/format/date';
import { useFunctionRun } from '../api/getFunctionRun';
import { prettyJson } from '../lib';
import { ConsoleList } from './ConsoleList';
import { useFunctionLabels } from './labels';
import { StatusIcon } from './StatusIcon';

function Field({ label, children, testId }: { label: string; children: ReactNode; testId: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" fw={700} tt="uppercase">
        {label}
      </Text>
      <div data-testid={testId}>{children}</div>
    </Stack>
  );
}

const block = { whiteSpace: 'pre-wrap', wordBreak: 'break-word', maxHeight: 240, overflow: 'auto' } as const;

/** A stored run: duration, memory, status, started, arguments, result, error and console output. */
export function RunDetailModal({
  vendorId,
  functionId,
  runId,
  onClose,
}: {
  vendorId: number;
  functionId: number;
  runId: number | null;
  onClose(): void;
}) {
  const { t, i18n } = useTranslation();
  const labels = useFunctionLabels();
  const query = useFunctionRun(vendorId, functionId, runId);
  const run = query.data?.data;

  return (
    <Modal
      opened={runId !== null}
      onClose={onClose}
      size="xl"
      title={runId !== null ? t('functions.runs.modal.title', { id: runId }) : ''}
      data-testid="run-modal"
    >
      {query.isPending ? (
        <LoadingState text={t('functions.runs.modal.loading')} testId="run-modal-loading" />
      ) : query.error || !run ? (
        <LoadError
          error={query.error}
          onRetry={query.refetch}
          testId="run-modal-error"
          title={t('functions.runs.modal.loadErrorTitle')}
        />
      ) : (
        <Stack gap="md" data-testid="run-modal-content">
          <SimpleGrid cols={{ base: 2, sm: 4 }}>
            <Field label={t('functions.runs.modal.duration')} testId="run-modal-duration">
              <Text size="sm">{labels.ms(run.took)}</Text>
            </Field>
            <Field label={t('functions.runs.modal.memory')} testId="run-modal-memory">
              <Text size="sm">{formatBytes(run.memory)}</Text>
            </Field>
            <Field label={t('functions.runs.modal.status')} testId="run-modal-status">
              <StatusIcon status={run.status} />
            </Field>
            <Field label={t('functions.runs.modal.started')} testId="run-modal-started">
              <Text size="sm">{formatDateTime(run.created_at, i18n.language)}</Text>
            </Field>
          </SimpleGrid>
          {run.conversation_id !== null && (
            <Text size="sm" c="dimmed">
              {t('functions.runs.modal.conversation', { id: run.conversation_id })}
            </Text>
          )}
          <Field label={t('functions.runs.modal.arguments')} testId="run-modal-arguments">
            <Code block style={block}>
              {prettyJson(run.arguments)}
            </Code>
          </Field>
          <Field label={t('functions.runs.modal.result')} testId="run-modal-result">
            <Code block style={block}>
              {prettyJson(run.result)}
            </Code>
          </Field>
          {run.debug && (
            <Field
              label={t('functions.runs.modal.breakpoint', { line: run.debug.breakpoint })}
              testId="run-modal-debug"
            >
              <Code block style={block}>
                {run.debug.string}
              </Code>
            </Field>
          )}
          <Field label={t('functions.runs.modal.error')} testId="run-modal-error-field">
            {run.error ? (
              <Text size="sm" c="red" style={{ whiteSpace: 'pre-wrap' }}>
                {run.error.line ? `${t('functions.runs.modal.line', { line: run.error.line })}: ` : ''}
                {run.error.message}
              </Text>
            ) : (
              <Text size="sm" c="dimmed">
                {t('functions.runs.modal.noError')}
              </Text>
            )}
          </Field>
          <Field label={t('functions.runs.modal.console')} testId="run-modal-console">
            <ConsoleList entries={run.console} testId="run-console" />
          </Field>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} data-testid="run-modal-close">
              {t('functions.runs.modal.close')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
