import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { signInWithGoogle } from '../api/sign-in-with-google.ts';

const GoogleMark = () => (
  <svg viewBox="0 0 24 24" className="h-[18px] w-[18px]" aria-hidden="true">
    <path fill="#4285F4" d="M23.5 12.27c0-.79-.07-1.54-.2-2.27H12v4.51h6.47a5.53 5.53 0 0 1-2.4 3.63v3h3.87c2.27-2.09 3.56-5.17 3.56-8.87Z" />
    <path fill="#34A853" d="M12 24c3.24 0 5.96-1.07 7.94-2.9l-3.87-3c-1.08.72-2.45 1.15-4.07 1.15-3.13 0-5.78-2.11-6.73-4.96H1.27v3.09A12 12 0 0 0 12 24Z" />
    <path fill="#FBBC05" d="M5.27 14.29A7.2 7.2 0 0 1 4.89 12c0-.8.14-1.57.38-2.29V6.62H1.27a12 12 0 0 0 0 10.76l4-3.09Z" />
    <path fill="#EA4335" d="M12 4.75c1.77 0 3.35.61 4.6 1.8l3.43-3.43A11.97 11.97 0 0 0 12 0 12 12 0 0 0 1.27 6.62l4 3.09C6.22 6.86 8.87 4.75 12 4.75Z" />
  </svg>
);

interface GoogleButtonProps {
  label: string;
  /** The absolute address Google sign-in returns to. */
  redirectTo: string;
  onError: (message: string) => void;
}

/** Continue with Google; the server's message is reported when it refuses. */
export function GoogleButton({ label, redirectTo, onError }: GoogleButtonProps) {
  const [pending, setPending] = useState(false);
  const start = async () => {
    setPending(true);
    const { error } = await signInWithGoogle(redirectTo);
    if (error) {
      onError(error);
      setPending(false);
    }
  };
  return (
    <Button variant="outline" size="lg" className="w-full" disabled={pending} onClick={() => void start()}>
      <GoogleMark />
      {label}
    </Button>
  );
}
