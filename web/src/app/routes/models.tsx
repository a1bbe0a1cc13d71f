import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PlaceholderPage } from '../../components/PlaceholderPage';
import { useEntityLabel } from './useEntityLabel';

export function ModelsRoute() {
  const { t } = useTranslation();
  return (
    <PlaceholderPage title={t('pages.models.title')} breadcrumbs={[{ label: t('pages.models.title') }]} />
  );
}

export function ModelRoute({ section }: { section: 'details' | 'usage' | 'configuration' }) {
  const { t } = useTranslation();
  const label = useEntityLabel();
  const { id } = useParams();
  const model = `${t('pages.models.model')} ${label(id)}`;
  return (
    <PlaceholderPage
      title={model}
      subtitle={t(`pages.models.${section}`)}
      breadcrumbs={[{ label: t('pages.models.title'), to: '/models' }, { label: model }]}
    />
  );
}
