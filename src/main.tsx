import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router-dom';
import { App } from './app/app-routes.tsx';
import { createQueryClient } from './lib/query-client.ts';
import './index.css';

const queryClient = createQueryClient();
const root = createRoot(document.getElementById('root')!);

// The first render is a transition: React builds the page in short slices
// instead of one long task, and the top bar index.html painted stays up until
// the page is ready to replace it.
startTransition(() => {
  root.render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <App />
        </BrowserRouter>
      </QueryClientProvider>
    </StrictMode>,
  );
});
