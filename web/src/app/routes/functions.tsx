import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PlaceholderPage } from '../../components/PlaceholderPage';
import { useEntityLabel } from './useEntityLabel';

export function FunctionsRoute() {
  const { t } = useTranslation();
  return (
    <PlaceholderPage
      title={t('pages.functions.title')}
      breadcrumbs={[{ label: t('pages.functions.title') }]}
    />
  );
}

export function FunctionRoute({ section }: { section: 'details' | 'editor' | 'runs' }) {
  const { t } = useTranslation();
  const label = useEntityLabel();
  const { id } = useParams();
  const fn = `${t('pages.functions.function')} ${label(id)}`;
  return (
    <PlaceholderPage
      title={fn}
      subtitle={t(`pages.functions.${section}`)}
      breadcrumbs={[{ label: t('pages.functions.title'), to: '/functions' }, { label: fn }]}
    />
  );
}
