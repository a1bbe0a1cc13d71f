import { createTheme, MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../i18n';
import { createQueryClient } from '../lib/api/dataLayer';
import { AppStateProvider } from './AppStateProvider';
import { Toasts } from './Toasts';

const theme = createTheme({
  primaryColor: 'blue',
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif, "Apple Color Emoji", "Segoe UI Emoji"',
  defaultRadius: 'md',
  // Tooltip show delay 200 ms (docs/reference/console.md). A plain theme entry, not `Tooltip.extend`, so the shell does
  // not import Tooltip (and floating-ui's interaction hooks) before a page uses one.
  components: { Tooltip: { defaultProps: { openDelay: 200 } } },
});

const queryClient = createQueryClient();

export function Providers({ children }: { children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <MantineProvider theme={theme} defaultColorScheme="light">
        <Toasts />
        <QueryClientProvider client={queryClient}>
          <AppStateProvider>{children}</AppStateProvider>
        </QueryClientProvider>
      </MantineProvider>
    </I18nextProvider>
  );
}
