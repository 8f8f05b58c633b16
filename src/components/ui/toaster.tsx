import { lazy, Suspense, useEffect, useState } from 'react';
import { registerToastOutlet, unregisterToastOutlet } from '../../lib/toast.ts';

const ToasterOutlet = lazy(() => import('./toaster-outlet.tsx'));

/** The app's toast outlet: renders sonner's (a chunk of its own) once the first toast is shown (lib/toast.ts). */
export function Toaster() {
  const [outlet, setOutlet] = useState<{ mounted: () => void } | null>(null);
  useEffect(() => {
    const show = () => setOutlet(registration);
    const registration = registerToastOutlet(show);
    if (registration.wanted) show();
    return () => unregisterToastOutlet(show);
  }, []);
  if (!outlet) return null;
  return (
    <Suspense fallback={null}>
      <ToasterOutlet onListening={outlet.mounted} />
    </Suspense>
  );
}
