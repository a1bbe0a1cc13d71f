import type { InstalledModelDetail } from '@llmor/contracts';
import { Button, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ConfirmDeleteModal } from '../../../components/ConfirmDeleteModal';
import { RelativeTime } from '../../../components/RelativeTime';
import { describeError } from '../../../lib/api/error';
import { useCurrentVendor } from '../../../lib/appState';
import { formatDateTime } from '../../../lib/format/date';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useDeleteModel } from '../api/deleteModel';
import { BillingBadge } from './BillingBadge';
import { useModelLabels } from './labels';

function Field({ label, children, testId }: { label: string; children: ReactNode; testId: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div" data-testid={testId}>
        {children}
      </Text>
    </Stack>
  );
}

/** The model's facts, and deleting it (with confirmation; back to the list with a toast). */
export function ModelDetails({ model }: { model: InstalledModelDetail }) {
  const { t, i18n } = useTranslation();
  const labels = useModelLabels();
  const navigate = useNavigate();
  const vendor = useCurrentVendor();
  const remove = useDeleteModel(vendor?.id ?? 0);
  const [confirming, setConfirming] = useState(false);

  const onDelete = () =>
    remove.mutate(model.id, {
      onSuccess: () => {
        setConfirming(false);
        notifySuccess(t('models.detail.deleted', { name: model.name }));
        navigate('/models');
      },
      onError: (error) => {
        console.error('Deleting the model failed', error);
        notifyError(describeError(error).message ?? t('models.detail.deleteFailed'), {
          title: t('models.detail.deleteFailed'),
        });
      },
    });

  return (
    <Stack gap="lg">
      <Card withBorder radius="md" padding="lg" data-testid="model-details">
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg" verticalSpacing="md">
          <Field label={t('models.detail.fields.name')} testId="model-detail-name">
            {model.name}
          </Field>
          <Field label={t('models.detail.fields.type')} testId="model-detail-type">
            {labels.type(model.type)}
          </Field>
          <Field label={t('models.detail.fields.provider')} testId="model-detail-provider">
            {labels.provider(model.provider)}
          </Field>
          <Field label={t('models.detail.fields.modelKey')} testId="model-detail-key">
            <Text span ff="monospace" size="sm">
              {model.model_key}
            </Text>
          </Field>
          <Field label={t('models.detail.fields.cost')} testId="model-detail-cost">
            {model.cost_per_1k_formatted}
          </Field>
          <Field label={t('models.detail.fields.billing')} testId="model-detail-billing">
            <BillingBadge prepaid={model.prepaid} />
          </Field>
          <Field label={t('models.detail.fields.tokens')} testId="model-detail-tokens">
            {model.available_tokens_formatted}
          </Field>
          <Field label={t('models.detail.fields.created')} testId="model-detail-created">
            {formatDateTime(model.created_at, i18n.language)} (<RelativeTime value={model.created_at} />)
          </Field>
        </SimpleGrid>
        {model.description && (
          <Stack gap={2} mt="lg">
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              {t('models.detail.fields.description')}
            </Text>
            <Text size="sm" data-testid="model-detail-description">
              {model.description}
            </Text>
          </Stack>
        )}
      </Card>
      <Group>
        <Button
          color="red"
          variant="light"
          leftSection={<IconTrash size={16} />}
          onClick={() => setConfirming(true)}
          data-testid="model-delete"
        >
          {t('models.detail.delete')}
        </Button>
      </Group>
      <ConfirmDeleteModal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('models.detail.deleteTitle')}
        text={t('models.detail.deleteMessage', { name: model.name })}
        cancelLabel={t('models.detail.deleteCancel')}
        confirmLabel={t('models.detail.deleteConfirm')}
        onConfirm={onDelete}
        loading={remove.isPending}
        lockWhileLoading
        centered
        testIds={{
          text: 'model-delete-message',
          cancel: 'model-delete-cancel',
          confirm: 'model-delete-confirm',
        }}
      />
    </Stack>
  );
}
