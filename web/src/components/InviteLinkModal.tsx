import { Button, CopyButton, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The invitation link the server answers once when it could not mail it: shown with a copy button (docs/reference/api.md "Organisations"). */
export function InviteLinkModal({
  url,
  email,
  onClose,
}: {
  url: string | null;
  email: string;
  onClose(): void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={url !== null}
      onClose={onClose}
      title={t('inviteLink.title')}
      data-testid="invite-link-modal"
    >
      <Stack gap="md">
        <Text size="sm">{t('inviteLink.text', { email })}</Text>
        <TextInput
          value={url ?? ''}
          readOnly
          onFocus={(e) => e.currentTarget.select()}
          data-testid="invite-link"
        />
        <Group justify="flex-end">
          <CopyButton value={url ?? ''}>
            {({ copied, copy }) => (
              <Button variant="light" onClick={copy}>
                {copied ? t('inviteLink.copied') : t('inviteLink.copy')}
              </Button>
            )}
          </CopyButton>
          <Button onClick={onClose} data-testid="invite-link-close">
            {t('inviteLink.close')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
