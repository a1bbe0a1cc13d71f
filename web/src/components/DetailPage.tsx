import { Alert, Anchor, Tabs, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { KeyPrefix, TextKey } from '../lib/textKeys';
import { LoadError } from './LoadError';

/**
 * The section tabs of a detail page (`<basePath>/<section>`): `data-testid="<testIdPrefix>-tab-<section>"`,
 * labelled by the texts `<textKeyPrefix>.<section>`, the list by `<textKeyPrefix>.tabs`.
 */
export function SectionTabs<S extends string>({
  section,
  sections,
  basePath,
  testIdPrefix,
  textKeyPrefix,
}: {
  section: S;
  sections: readonly S[];
  basePath: string;
  testIdPrefix: string;
  textKeyPrefix: KeyPrefix<'tabs'>;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Tabs
      value={section}
      onChange={(value) => value && navigate(`${basePath}/${value}`)}
      mb="lg"
      keepMounted={false}
    >
      <Tabs.List aria-label={t(`${textKeyPrefix}.tabs`)}>
        {sections.map((s) => (
          <Tabs.Tab key={s} value={s} data-testid={`${testIdPrefix}-tab-${s}`}>
            {t(`${textKeyPrefix}.${s}` as TextKey)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}

/**
 * A detail page whose entity did not load: "not found" (grey, `<testIdPrefix>-not-found`, with a link back
 * to the list) or the failure with Try again (`<testIdPrefix>-load-error`). Texts:
 * `<textKeyPrefix>.notFoundTitle`, `.loadFailedTitle`, `.notFoundMessage`, `.backToList`.
 */
export function LoadProblem({
  notFound,
  error,
  onRetry,
  listPath,
  testIdPrefix,
  textKeyPrefix,
}: {
  notFound: boolean;
  error: unknown;
  onRetry: () => unknown;
  listPath: string;
  testIdPrefix: string;
  textKeyPrefix: KeyPrefix<'notFoundTitle'> & KeyPrefix<'loadFailedTitle'> & KeyPrefix<'backToList'>;
}) {
  const { t } = useTranslation();
  if (!notFound) {
    return (
      <LoadError
        error={error}
        onRetry={onRetry}
        title={t(`${textKeyPrefix}.loadFailedTitle`)}
        testId={`${testIdPrefix}-load-error`}
      />
    );
  }
  return (
    <Alert
      color="gray"
      variant="light"
      title={t(`${textKeyPrefix}.notFoundTitle`)}
      data-testid={`${testIdPrefix}-not-found`}
    >
      <Text size="sm" mb="xs">
        {t(`${textKeyPrefix}.notFoundMessage`)}
      </Text>
      <Anchor component={Link} to={listPath} size="sm">
        {t(`${textKeyPrefix}.backToList`)}
      </Anchor>
    </Alert>
  );
}
