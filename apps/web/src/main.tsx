import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { createQueryClient } from './api/queryClient';
import { createAppRouter, firstRouteChunks, type AppRouter } from './router/router';
import { wireApiClient } from './session/wiring';
import './styles/theme.css';
import './ui/ui.css';
import './styles/global.css';
import { AppProviders } from './theme/AppProviders';

/**
 * Lets the browser run what is waiting (input, painting) between two steps of the start-up. A phone
 * counts each step as a task of its own — evaluating the scripts, starting the first route's layout and
 * page chunks, creating the router (route table, root loader), rendering — each under the 50 ms that
 * make a long task, instead of one task doing them all.
 */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

async function start(container: HTMLElement) {
  const queryClient = createQueryClient();
  const created: { router?: AppRouter } = {};
  // The client is wired first: creating the router runs the root loader, which may call the API.
  wireApiClient(() => {
    if (!created.router) throw new Error('the router is not created yet');
    return created.router;
  }, queryClient);
  await nextTask();
  for (const load of firstRouteChunks(window.location)) {
    // A failure shows when the router loads the same chunk.
    load().catch(() => undefined);
    await nextTask();
  }
  const router = createAppRouter();
  created.router = router;
  await nextTask();
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
}

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');
void start(container);
