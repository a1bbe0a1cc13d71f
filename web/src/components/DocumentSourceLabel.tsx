import type { DocumentSource } from '@llmor/contracts';
import { Anchor, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** "handbook.pdf · p. 2 · Staff guide › Holidays": where a datastore document came from. */
function useSourceText(): (source: DocumentSource) => string {
  const { t } = useTranslation();
  return (source) =>
    [
      source.file,
      source.page ? t('common.sourcePage', { page: source.page }) : undefined,
      source.heading?.length ? source.heading.join(' › ') : undefined,
    ]
      .filter(Boolean)
      .join(' · ');
}

/** A document's source in one line; a link to its page when the source has an address. */
export function DocumentSourceLabel({ source, size = 'xs' }: { source: DocumentSource; size?: 'xs' | 'sm' }) {
  const text = useSourceText()(source) || source.url || '';
  return source.url ? (
    <Anchor href={source.url} target="_blank" rel="noreferrer" size={size} data-testid="document-source">
      {text}
    </Anchor>
  ) : (
    <Text size={size} c="dimmed" data-testid="document-source">
      {text}
    </Text>
  );
}
