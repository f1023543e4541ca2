import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { createQueryClient } from './api/queryClient';
import { createAppRouter } from './router/router';
import { wireApiClient } from './session/wiring';
import './styles/theme.css';
import './ui/ui.css';
import './styles/global.css';
import { AppProviders } from './theme/AppProviders';

const queryClient = createQueryClient();
// The client is wired first: creating the router runs the root loader, which may call the API.
wireApiClient(() => router, queryClient);
const router = createAppRouter();

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

const root = createRoot(container);
// A transition: the first render yields to the browser every few milliseconds instead of blocking the
// main thread for the whole tree, so a phone stays responsive while the console starts.
startTransition(() => {
  root.render(
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
});
