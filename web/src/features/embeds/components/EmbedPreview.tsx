import { EMBED_DEFAULT_COLOR, type EmbedAppearance } from '@llmor/contracts';
import { Box, Group, Paper, Stack, Text } from '@mantine/core';
import { IconMessageCircle, IconSend } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { textColorOn } from '../../../embed/color';
import { renderMarkdown } from '../../../embed/markdown';
import classes from './EmbedPreview.module.css';

/** Markdown as the widget renders it (its own renderer: what the preview shows is what visitors see). */
function WidgetMarkdown({ text }: { text: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.replaceChildren(renderMarkdown(document, text));
  }, [text]);
  return <div ref={ref} className={classes.markdown} data-testid="embed-preview-welcome" />;
}

/** A still picture of the widget with the form's look: panel, welcome text and launcher in their corner. */
export function EmbedPreview({ look, fallbackTitle }: { look: EmbedAppearance; fallbackTitle: string }) {
  const { t } = useTranslation();
  const onAccent = textColorOn(/^#[0-9a-f]{6}$/i.test(look.color) ? look.color : EMBED_DEFAULT_COLOR);
  const left = look.position === 'bottom-left';
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      bg="var(--mantine-color-gray-0)"
      aria-label={t('embeds.detail.preview')}
      role="img"
      data-testid="embed-preview"
    >
      <Stack gap="sm" align={left ? 'flex-start' : 'flex-end'}>
        <Paper shadow="md" radius="md" w={260} style={{ overflow: 'hidden' }}>
          <Box px="sm" py={8} bg={look.color} c={onAccent}>
            <Text fw={600} size="sm" truncate data-testid="embed-preview-title">
              {look.title || fallbackTitle}
            </Text>
          </Box>
          <Stack gap={6} p="sm" mih={90} bg="var(--mantine-color-gray-0)">
            {look.welcome_text && (
              <Paper withBorder radius="md" px="sm" py={6} maw="85%" fz="xs">
                <WidgetMarkdown text={look.welcome_text} />
              </Paper>
            )}
          </Stack>
          <Group gap={6} p={8} wrap="nowrap" style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
            <Text size="xs" c="dimmed" flex={1}>
              {t('embeds.detail.previewMessage')}
            </Text>
            <Box
              bg={look.color}
              c={onAccent}
              w={26}
              h={26}
              style={{ borderRadius: 6, display: 'grid', placeItems: 'center' }}
            >
              <IconSend size={14} />
            </Box>
          </Group>
        </Paper>
        <Box
          bg={look.color}
          c={onAccent}
          w={44}
          h={44}
          style={{ borderRadius: '50%', display: 'grid', placeItems: 'center' }}
        >
          <IconMessageCircle size={22} />
        </Box>
      </Stack>
    </Paper>
  );
}
