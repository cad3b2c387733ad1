// Must stay the first import: it configures zod before any schema is created.
import './lib/zod-setup';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { restoreSession } from './lib/api-client';
import './styles/index.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The access token lives in memory only: each load asks the server for one with the refresh cookie.
restoreSession();

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
