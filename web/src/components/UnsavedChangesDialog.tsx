import { Button, Group, Modal, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The "Unsaved changes" question (a chunk of its own: the shell's first screen does not carry a dialog). */
export function UnsavedChangesDialog({ onStay, onLeave }: { onStay(): void; onLeave(): void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened
      onClose={onStay}
      title={t('common.unsaved.title')}
      centered
      zIndex={1000}
      data-testid="unsaved-prompt"
    >
      <Text size="sm" mb="md">
        {t('common.unsaved.text')}
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onStay} data-testid="unsaved-stay">
          {t('common.unsaved.stay')}
        </Button>
        <Button color="red" onClick={onLeave} data-testid="unsaved-leave">
          {t('common.unsaved.leave')}
        </Button>
      </Group>
    </Modal>
  );
}
