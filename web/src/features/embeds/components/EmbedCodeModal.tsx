import { Button, Code, Group, Modal, Stack, Text } from '@mantine/core';
import { IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/LoadError';
import { LoadingState } from '../../../components/LoadingState';
import { useEmbedCode } from '../api/getEmbedCode';
import { snippetOf } from '../lib';
import { useEmbedCopy } from './useEmbedCopy';

/** The Embed Code modal: the `<script>` tag of an embed, with a copy button. */
export function EmbedCodeModal({
  vendorId,
  appId,
  embedId,
  onClose,
}: {
  vendorId: number;
  appId: string;
  /** The embed whose code to show; null: closed. */
  embedId: number | null;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const { copyCode } = useEmbedCopy(vendorId, appId);
  const code = useEmbedCode(vendorId, appId, embedId);
  return (
    <Modal opened={embedId !== null} onClose={onClose} title={t('embeds.code.title')} size="lg">
      <Stack gap="sm" data-testid="embed-code-modal">
        <Text size="sm">{t('embeds.code.intro')}</Text>
        {code.isPending ? (
          <LoadingState text={t('embeds.code.loading')} testId="embed-code-loading" />
        ) : code.isError ? (
          <LoadError error={code.error} onRetry={code.refetch} />
        ) : (
          <Code block data-testid="embed-code-snippet">
            {snippetOf(code.data)}
          </Code>
        )}
        <Group justify="flex-end">
          <Button
            leftSection={<IconCopy size={16} />}
            disabled={embedId === null || code.isError}
            onClick={() => embedId !== null && void copyCode(embedId, code.data)}
            data-testid="embed-code-copy"
          >
            {t('embeds.code.copy')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
