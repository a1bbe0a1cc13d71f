import { useTranslation } from 'react-i18next';

/** "#12" for an id, "New" for the create marker '+'. */
export function useEntityLabel() {
  const { t } = useTranslation();
  return (id: string | undefined) => (id === '+' ? t('common.new') : t('common.idLabel', { id: id ?? '' }));
}
