import { createTheme, MantineProvider, Tooltip } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../i18n';
import { AppStateProvider } from './AppStateProvider';

const theme = createTheme({
  primaryColor: 'blue',
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif, "Apple Color Emoji", "Segoe UI Emoji"',
  defaultRadius: 'md',
  // Tooltip show delay 200 ms (spec 01 §9).
  components: { Tooltip: Tooltip.extend({ defaultProps: { openDelay: 200 } }) },
});

const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 },
  },
});

export function Providers({ children }: { children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <MantineProvider theme={theme} defaultColorScheme="light">
        {/* Toasts: top-right, 5000 ms, at most 20 (spec 01 §9). */}
        <Notifications position="top-right" autoClose={5000} limit={20} />
        <ModalsProvider>
          <QueryClientProvider client={queryClient}>
            <AppStateProvider>{children}</AppStateProvider>
          </QueryClientProvider>
        </ModalsProvider>
      </MantineProvider>
    </I18nextProvider>
  );
}
