import { Alert, Anchor, Tabs, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { describeError } from '../lib/api/error';
import type { KeyPrefix, TextKey } from '../lib/textKeys';

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
 * A detail page whose entity did not load: "not found" (grey, `<testIdPrefix>-not-found`) or the error
 * (red, `<testIdPrefix>-load-error`), with a link back to the list. Texts: `<textKeyPrefix>.notFoundTitle`,
 * `.loadFailedTitle`, `.notFoundMessage`, `.backToList`.
 */
export function LoadProblem({
  notFound,
  error,
  listPath,
  testIdPrefix,
  textKeyPrefix,
}: {
  notFound: boolean;
  error: unknown;
  listPath: string;
  testIdPrefix: string;
  textKeyPrefix: KeyPrefix<'notFoundTitle'> & KeyPrefix<'loadFailedTitle'> & KeyPrefix<'backToList'>;
}) {
  const { t } = useTranslation();
  return (
    <Alert
      color={notFound ? 'gray' : 'red'}
      variant="light"
      icon={notFound ? undefined : <IconAlertTriangle size={18} />}
      title={notFound ? t(`${textKeyPrefix}.notFoundTitle`) : t(`${textKeyPrefix}.loadFailedTitle`)}
      data-testid={notFound ? `${testIdPrefix}-not-found` : `${testIdPrefix}-load-error`}
    >
      <Text size="sm" mb="xs">
        {notFound
          ? t(`${textKeyPrefix}.notFoundMessage`)
          : (describeError(error).message ?? t('errors.unknownMessage'))}
      </Text>
      <Anchor component={Link} to={listPath} size="sm">
        {t(`${textKeyPrefix}.backToList`)}
      </Anchor>
    </Alert>
  );
}
