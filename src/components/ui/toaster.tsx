import { Toaster as SonnerToaster } from 'sonner';

/** The app's toast outlet (sonner): top centre, rich colours for errors and successes. */
export function Toaster() {
  return <SonnerToaster position="top-center" richColors closeButton duration={4000} toastOptions={{ className: 'font-sans' }} />;
}
