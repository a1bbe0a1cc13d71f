import {
  EMBED_DEFAULT_APPEARANCE,
  EMBED_POSITIONS,
  type Embed,
  type EmbedAppearance,
  embedBody,
} from '@llmor/contracts';
import {
  ActionIcon,
  Alert,
  Button,
  Code,
  ColorInput,
  Grid,
  Group,
  Input,
  SegmentedControl,
  Stack,
  TagsInput,
  Textarea,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { type FormErrors, useForm } from '@mantine/form';
import { IconAlertTriangle, IconCode, IconCopy, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ConfirmDeleteModal } from '../../../components/ConfirmDeleteModal';
import { LoadProblem } from '../../../components/DetailPage';
import { LoadingState } from '../../../components/LoadingState';
import { NoVendorSelected } from '../../../components/NoVendorSelected';
import { PageHeader } from '../../../components/PageHeader';
import { isApiError } from '../../../lib/api/error';
import { useCurrentVendor } from '../../../lib/appState';
import { type FieldMessages, submitErrors, toFormErrors, zodFormValidate } from '../../../lib/form';
import { notifySuccess, SETTINGS_AREA_TOAST } from '../../../lib/notify';
import { useDeleteEmbed } from '../api/deleteEmbed';
import { useEmbed } from '../api/getEmbed';
import { useSaveEmbed } from '../api/saveEmbed';
import { EmbedCodeModal } from './EmbedCodeModal';
import { EmbedPreview } from './EmbedPreview';
import { useEmbedCopy } from './useEmbedCopy';
import '../i18n';
import { useUnsavedChanges } from '../../../components/UnsavedChanges';

interface EmbedFormValues {
  name: string;
  allowed_origins: string[];
  appearance: EmbedAppearance;
}

/** The origins field shows every origin's error (`allowed_origins.2`) as its own. */
function foldOriginErrors(errors: FormErrors): FormErrors {
  const out: FormErrors = {};
  for (const [path, message] of Object.entries(errors)) {
    const key = path.startsWith('allowed_origins.') ? 'allowed_origins' : path;
    out[key] ??= message;
  }
  return out;
}

/**
 * App settings → Web embeds → one embed (`embeds/+` creates; docs/reference/console.md): name, allowed origins and look
 * with a preview; an existing embed's masked token with copy and Embed Code. After creating, the token is
 * shown in full this once and the route becomes the new embed's.
 */
export function AppEmbedSettings({ appId, embedId }: { appId: string; embedId: string }) {
  const vendor = useCurrentVendor();
  // Kept across the route change from '+' to the new id (this component stays mounted).
  const [created, setCreated] = useState<{ id: number; token: string } | null>(null);
  if (!vendor) return <NoVendorSelected />;
  const id = embedId === '+' ? null : /^\d+$/.test(embedId) ? Number(embedId) : Number.NaN;
  return (
    <EmbedPage
      vendorId={vendor.id}
      appId={appId}
      embedId={id}
      createdToken={created && created.id === id ? created.token : null}
      onCreated={setCreated}
    />
  );
}

function EmbedPage({
  vendorId,
  appId,
  embedId,
  createdToken,
  onCreated,
}: {
  vendorId: number;
  appId: string;
  /** null: a new embed; NaN: not an embed id. */
  embedId: number | null;
  createdToken: string | null;
  onCreated(created: { id: number; token: string }): void;
}) {
  const { t } = useTranslation();
  const valid = embedId === null || Number.isInteger(embedId);
  const query = useEmbed(vendorId, appId, valid ? embedId : null);
  const listPath = `/apps/${appId}/settings/embeds`;
  if (!valid || query.isError) {
    return (
      <>
        <PageHeader sub title={t('embeds.detail.notFoundTitle')} titleTestId="settings-title" />
        <LoadProblem
          notFound={!valid || (isApiError(query.error) && query.error.status === 404)}
          error={query.error}
          onRetry={query.refetch}
          listPath={listPath}
          testIdPrefix="embed"
          textKeyPrefix="embeds.detail"
        />
      </>
    );
  }
  if (embedId !== null && query.isPending)
    return <LoadingState text={t('embeds.loading')} testId="embed-loading" />;
  const embed = embedId === null ? null : (query.data ?? null);
  return (
    <EmbedForm
      // A new form for each embed: the created one starts from what the server stored.
      key={embed?.id ?? 'new'}
      vendorId={vendorId}
      appId={appId}
      embed={embed}
      createdToken={createdToken}
      onCreated={onCreated}
    />
  );
}

function EmbedForm({
  vendorId,
  appId,
  embed,
  createdToken,
  onCreated,
}: {
  vendorId: number;
  appId: string;
  embed: Embed | null;
  createdToken: string | null;
  onCreated(created: { id: number; token: string }): void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const save = useSaveEmbed(vendorId, appId, embed?.id ?? null);
  const [showCode, setShowCode] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const { copyToken } = useEmbedCopy(vendorId, appId);
  const validate = zodFormValidate<EmbedFormValues>(embedBody, t);
  const form = useForm<EmbedFormValues>({
    initialValues: {
      name: embed?.name ?? '',
      allowed_origins: embed?.allowed_origins ?? [],
      appearance: embed?.appearance ?? EMBED_DEFAULT_APPEARANCE,
    },
    validate: (values) => foldOriginErrors(validate(values)),
  });
  const unsaved = useUnsavedChanges(form.isDirty());
  const listPath = `/apps/${appId}/settings/embeds`;

  const onSubmit = async (values: EmbedFormValues) => {
    try {
      const answer = await save.mutateAsync(values);
      if (embed) {
        form.resetDirty();
        notifySuccess(t('embeds.toast.saved'), SETTINGS_AREA_TOAST);
        return;
      }
      onCreated({ id: answer.data.id, token: answer.data.token });
      notifySuccess(t('embeds.toast.created'), SETTINGS_AREA_TOAST);
      unsaved.allowNextNavigation();
      navigate(`${listPath}/${answer.data.id}`, { replace: true });
    } catch (error) {
      const errors: FieldMessages = submitErrors(error, t('embeds.toast.saveFailed'), SETTINGS_AREA_TOAST);
      form.setErrors(foldOriginErrors(toFormErrors(errors)));
    }
  };

  return (
    <>
      <PageHeader
        sub
        title={embed ? embed.name : t('embeds.detail.newTitle')}
        titleTestId="settings-title"
        actions={
          embed && (
            <Button
              variant="default"
              leftSection={<IconCode size={16} />}
              onClick={() => setShowCode(true)}
              data-testid="embed-detail-show-code"
            >
              {t('embeds.detail.showCode')}
            </Button>
          )
        }
      />
      <form onSubmit={form.onSubmit((values) => void onSubmit(values))} noValidate>
        <Stack gap="md" maw={960}>
          {createdToken && (
            <Alert
              color="yellow"
              variant="light"
              icon={<IconAlertTriangle size={18} />}
              title={t('embeds.detail.createdTitle')}
              data-testid="embed-created-token"
            >
              <Stack gap="xs">
                {t('embeds.detail.createdWarning')}
                <Group gap="xs" wrap="nowrap">
                  <Code data-testid="embed-full-token" style={{ wordBreak: 'break-all' }}>
                    {createdToken}
                  </Code>
                  <CopyTokenButton onCopy={() => embed && void copyToken(embed.id)} />
                </Group>
              </Stack>
            </Alert>
          )}
          <Grid gap="xl">
            <Grid.Col span={{ base: 12, md: 7 }}>
              <Stack gap="sm">
                <TextInput
                  label={t('embeds.detail.name')}
                  description={t('embeds.detail.nameHint')}
                  required
                  data-autofocus
                  {...form.getInputProps('name')}
                  data-testid="embed-name"
                />
                {embed && (
                  <TextInput
                    label={t('embeds.detail.token')}
                    description={t('embeds.detail.tokenHint')}
                    value={embed.token}
                    readOnly
                    rightSection={<CopyTokenButton onCopy={() => void copyToken(embed.id)} />}
                    data-testid="embed-token-field"
                  />
                )}
                <TagsInput
                  label={t('embeds.detail.origins')}
                  description={t('embeds.detail.originsHint')}
                  placeholder={t('embeds.detail.originsPlaceholder')}
                  splitChars={[',', ' ']}
                  clearable
                  {...form.getInputProps('allowed_origins')}
                  data-testid="embed-origins"
                />
                <Title order={4} mt="sm">
                  {t('embeds.detail.look')}
                </Title>
                <TextInput
                  label={t('embeds.detail.widgetTitle')}
                  description={t('embeds.detail.widgetTitleHint')}
                  {...form.getInputProps('appearance.title')}
                  data-testid="embed-title"
                />
                <ColorInput
                  label={t('embeds.detail.color')}
                  format="hex"
                  {...form.getInputProps('appearance.color')}
                  data-testid="embed-color"
                />
                <Textarea
                  label={t('embeds.detail.welcome')}
                  description={t('embeds.detail.welcomeHint')}
                  autosize
                  minRows={2}
                  maxRows={6}
                  {...form.getInputProps('appearance.welcome_text')}
                  data-testid="embed-welcome"
                />
                <Input.Wrapper label={t('embeds.detail.position')}>
                  <div>
                    <SegmentedControl
                      data={EMBED_POSITIONS.map((value) => ({
                        value,
                        label: t(`embeds.detail.positions.${value}`),
                      }))}
                      {...form.getInputProps('appearance.position')}
                      data-testid="embed-position"
                    />
                  </div>
                </Input.Wrapper>
              </Stack>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 5 }}>
              <Input.Wrapper label={t('embeds.detail.preview')}>
                <EmbedPreview look={form.values.appearance} fallbackTitle={t('embeds.detail.previewTitle')} />
              </Input.Wrapper>
            </Grid.Col>
          </Grid>
          <Group justify="space-between">
            {embed ? (
              <Button
                variant="subtle"
                color="red"
                leftSection={<IconTrash size={16} />}
                onClick={() => setDeleting(true)}
                data-testid="embed-delete"
              >
                {t('embeds.detail.delete')}
              </Button>
            ) : (
              <span />
            )}
            <Button type="submit" loading={save.isPending} data-testid="embed-save">
              {embed ? t('embeds.detail.save') : t('embeds.detail.create')}
            </Button>
          </Group>
        </Stack>
      </form>
      {embed && (
        <>
          <EmbedCodeModal
            vendorId={vendorId}
            appId={appId}
            embedId={showCode ? embed.id : null}
            onClose={() => setShowCode(false)}
          />
          <DeleteEmbed
            vendorId={vendorId}
            appId={appId}
            embed={embed}
            opened={deleting}
            onClose={() => setDeleting(false)}
            onDeleted={() => {
              unsaved.allowNextNavigation();
              navigate(listPath, { replace: true });
            }}
          />
        </>
      )}
    </>
  );
}

function CopyTokenButton({ onCopy }: { onCopy(): void }) {
  const { t } = useTranslation();
  return (
    <Tooltip label={t('embeds.copyToken')}>
      <ActionIcon
        variant="subtle"
        aria-label={t('embeds.copyToken')}
        onClick={onCopy}
        data-testid="embed-copy-token"
      >
        <IconCopy size={16} />
      </ActionIcon>
    </Tooltip>
  );
}

function DeleteEmbed({
  vendorId,
  appId,
  embed,
  opened,
  onClose,
  onDeleted,
}: {
  vendorId: number;
  appId: string;
  embed: Embed;
  opened: boolean;
  onClose(): void;
  onDeleted(): void;
}) {
  const { t } = useTranslation();
  const remove = useDeleteEmbed(vendorId, appId, embed.id);
  return (
    <ConfirmDeleteModal
      opened={opened}
      onClose={onClose}
      title={t('embeds.detail.deleteTitle')}
      text={t('embeds.detail.deleteText', { name: embed.name })}
      cancelLabel={t('embeds.detail.cancel')}
      confirmLabel={t('embeds.detail.delete')}
      loading={remove.isPending}
      lockWhileLoading
      onConfirm={() =>
        remove.mutate(undefined, {
          onSuccess: () => {
            notifySuccess(t('embeds.toast.deleted'), SETTINGS_AREA_TOAST);
            onDeleted();
          },
          onError: (error) => submitErrors(error, t('embeds.toast.saveFailed'), SETTINGS_AREA_TOAST),
        })
      }
      testIds={{
        dialog: 'embed-delete-dialog',
        text: 'embed-delete-text',
        cancel: 'embed-delete-cancel',
        confirm: 'embed-delete-confirm',
      }}
    />
  );
}
