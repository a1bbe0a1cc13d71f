import { Button, Group, Modal, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';

/**
 * Asks before leaving a page with unsaved changes: a dialog for navigation inside the console, the
 * browser's own prompt for closing or reloading the tab.
 */
export function UnsavedChangesPrompt({ dirty }: { dirty: boolean }) {
  const { t } = useTranslation();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  const blocked = blocker.state === 'blocked';
  return (
    <Modal
      opened={blocked}
      onClose={() => blocker.reset?.()}
      title={t('common.unsaved.title')}
      centered
      data-testid="unsaved-prompt"
    >
      <Text size="sm" mb="md">
        {t('common.unsaved.text')}
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={() => blocker.reset?.()} data-testid="unsaved-stay">
          {t('common.unsaved.stay')}
        </Button>
        <Button color="red" onClick={() => blocker.proceed?.()} data-testid="unsaved-leave">
          {t('common.unsaved.leave')}
        </Button>
      </Group>
    </Modal>
  );
}
