import { Alert, Stack } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { events } from '../lib/events';
import { errorText } from './LoadError';

interface Banner {
  id: number;
  title: string;
  message: string;
}

let nextId = 1;

/**
 * Error banners above the page content: the data layer's default report of a failed call
 * (client-did-receive-error), dismissed one at a time.
 */
export function ErrorBanners() {
  const { t } = useTranslation();
  const [banners, setBanners] = useState<Banner[]>([]);

  useEffect(
    () =>
      events.on('client-did-receive-error', (error) => {
        const { title, message } = errorText(t, error);
        // One banner per error: the same failure reported again (several queries of one page) is not repeated.
        setBanners((list) =>
          list.some((b) => b.title === title && b.message === message)
            ? list
            : [...list, { id: nextId++, title, message }],
        );
      }),
    [t],
  );

  // Banners belong to the page they were raised on.
  const { pathname } = useLocation();
  useEffect(() => {
    if (pathname) setBanners([]);
  }, [pathname]);

  if (banners.length === 0) return null;
  return (
    <Stack gap="xs" mb="md" role="region" aria-label={t('errors.region')} data-testid="error-banners">
      {banners.map((banner) => (
        <Alert
          key={banner.id}
          color="red"
          variant="light"
          icon={<IconAlertTriangle size={18} />}
          title={banner.title}
          withCloseButton
          closeButtonLabel={t('errors.dismiss')}
          onClose={() => setBanners((list) => list.filter((b) => b.id !== banner.id))}
          data-testid="error-banner"
          role="alert"
        >
          {banner.message}
        </Alert>
      ))}
    </Stack>
  );
}
