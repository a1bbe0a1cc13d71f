import type { ModelProvider, ModelType } from '@llmor/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import '../i18n';

/** Translated model type and provider names; a model without a provider shows 'N/A' (docs/reference/console.md). */
export function useModelLabels() {
  const { t } = useTranslation();
  return useMemo(
    () => ({
      type: (type: ModelType | string) => t(`models.types.${type}`, { defaultValue: type }),
      provider: (provider: ModelProvider | string | null | undefined) =>
        provider ? t(`models.providers.${provider}`, { defaultValue: provider }) : t('models.notAvailable'),
    }),
    [t],
  );
}
