import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { i18n } from './i18n';
import { toBcp47 } from './lib/locale';

document.documentElement.lang = toBcp47(i18n.language);
i18n.on('languageChanged', (locale: string) => {
  document.documentElement.lang = toBcp47(locale);
});

const root = document.getElementById('root');
if (!root) throw new Error('#root element missing');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
