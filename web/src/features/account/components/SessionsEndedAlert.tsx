import { Alert } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';

/** How many other sessions an action signed out, until the person closes it. */
export function SessionsEndedAlert({
  text,
  onClose,
  testId,
}: {
  text: string;
  onClose: () => void;
  testId: string;
}) {
  return (
    <Alert
      color="green"
      icon={<IconCheck size={18} />}
      withCloseButton
      onClose={onClose}
      data-testid={testId}
    >
      {text}
    </Alert>
  );
}
