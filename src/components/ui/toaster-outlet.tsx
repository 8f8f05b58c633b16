import { useEffect } from 'react';
import { Toaster as SonnerToaster } from 'sonner';

/** Sonner's outlet: top centre, rich colours for errors and successes. `onListening` runs once it receives toasts. */
export default function ToasterOutlet({ onListening }: { onListening: () => void }) {
  // Children's effects run first: by now sonner's outlet has subscribed to new toasts.
  useEffect(onListening, [onListening]);
  return <SonnerToaster position="top-center" richColors closeButton duration={4000} toastOptions={{ className: 'font-sans' }} />;
}
