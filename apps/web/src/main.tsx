import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { i18nReady } from './i18n/i18n.ts';
import './styles/index.css';
import { App } from './app/App.tsx';
import { bootSession } from './auth/session.ts';
import { startTheme } from './theme/theme.ts';

startTheme();
bootSession();

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element to render into.');

const root = createRoot(container);
// A visitor in Lithuanian first gets its texts (English is bundled): no flash of English.
void i18nReady.then(() =>
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
