import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { i18n, loadLanguageTexts } from './i18n';
import { toBcp47 } from './lib/locale';

document.documentElement.lang = toBcp47(i18n.language);
i18n.on('languageChanged', (locale: string) => {
  document.documentElement.lang = toBcp47(locale);
});

const root = document.getElementById('root');
if (!root) throw new Error('#root element missing');
// The first render waits for the active language's texts (a chunk of a few KB; en_US is in the entry);
// should they not load, the console still starts, in en_US.
void loadLanguageTexts()
  .catch((error: unknown) => console.error(`Could not load the ${i18n.language} texts`, error))
  .then(() => {
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
