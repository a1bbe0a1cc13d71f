import { ActionIcon, Button, Group, Menu, Modal, Text } from '@mantine/core';
import { IconDots, IconTrash } from '@tabler/icons-react';
import { describeError } from '../lib/api/error';
import { type NotifyOptions, notifyError, notifySuccess } from '../lib/notify';

export interface ConfirmDeleteModalProps {
  opened: boolean;
  onClose(): void;
  title: string;
  text: string;
  cancelLabel: string;
  confirmLabel: string;
  onConfirm(): void;
  /** The delete is running: the confirm button spins. */
  loading: boolean;
  /** While loading, the dialog cannot be closed and Cancel is disabled. */
  lockWhileLoading?: boolean;
  centered?: boolean;
  testIds: { dialog?: string; text: string; cancel: string; confirm: string };
}

/** "Delete …?" confirmation: a text, Cancel and a red confirm button. */
export function ConfirmDeleteModal({
  opened,
  onClose,
  title,
  text,
  cancelLabel,
  confirmLabel,
  onConfirm,
  loading,
  lockWhileLoading = false,
  centered,
  testIds,
}: ConfirmDeleteModalProps) {
  const locked = lockWhileLoading && loading;
  return (
    <Modal
      opened={opened}
      onClose={() => !locked && onClose()}
      title={title}
      centered={centered}
      data-testid={testIds.dialog}
    >
      <Text size="sm" mb="lg" data-testid={testIds.text}>
        {text}
      </Text>
      <Group justify="flex-end">
        <Button
          variant="default"
          onClick={onClose}
          disabled={locked || undefined}
          data-testid={testIds.cancel}
        >
          {cancelLabel}
        </Button>
        <Button color="red" onClick={onConfirm} loading={loading} data-testid={testIds.confirm}>
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}

/** A page header's "…" menu holding Delete (it opens the confirmation). */
export function DeleteMenu({
  menuLabel,
  deleteLabel,
  onDelete,
  testId,
}: {
  menuLabel: string;
  deleteLabel: string;
  onDelete(): void;
  /** The menu button's test id; the item's is `<testId>-delete`. */
  testId: string;
}) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="default" size="lg" aria-label={menuLabel} data-testid={testId}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item
          color="red"
          leftSection={<IconTrash size={16} />}
          onClick={onDelete}
          data-testid={`${testId}-delete`}
        >
          {deleteLabel}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * The confirmed delete of a page's entity: the dialog closes; then 'deleted' is toasted and `onDeleted`
 * runs (e.g. back to the list), or the failure is toasted (the server's message, else `failed`).
 * Without `remove` (the entity is not loaded) only `unable` is toasted.
 */
export async function confirmDelete({
  remove,
  close,
  onDeleted,
  texts,
  toast,
}: {
  remove: (() => Promise<unknown>) | null;
  close(): void;
  onDeleted(): void;
  texts: { unable: string; deleted: string; failed: string };
  toast?: NotifyOptions;
}): Promise<void> {
  if (!remove) {
    close();
    notifyError(texts.unable, toast);
    return;
  }
  try {
    await remove();
    close();
    notifySuccess(texts.deleted, toast);
    onDeleted();
  } catch (error) {
    close();
    notifyError(describeError(error).message || texts.failed, toast);
  }
}
