import { forwardRef, useId, type InputHTMLAttributes, type ReactNode } from 'react';

interface FormFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string;
  /** Beside the label, e.g. a 'Forgot Password?' link. */
  aside?: ReactNode;
  hint?: string;
}

/** A labelled text input with its validation message beneath. */
export const FormField = forwardRef<HTMLInputElement, FormFieldProps>(function FormField({ label, error, aside, hint, className = '', ...props }, ref) {
  const id = useId();
  const messageId = `${id}-message`;
  return (
    <div className={className}>
      <div className="mb-1.5 flex items-center justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium text-neutral-800">
          {label}
        </label>
        {aside}
      </div>
      <input
        ref={ref}
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? messageId : undefined}
        className={`h-11 w-full rounded-xl border bg-white px-3.5 text-[15px] text-neutral-950 shadow-[0_1px_1px_rgba(0,0,0,0.03)] transition-colors outline-none placeholder:text-neutral-400 focus:border-neutral-950 focus:ring-4 focus:ring-neutral-950/5 read-only:bg-neutral-50 read-only:text-neutral-600 disabled:opacity-60 ${error ? 'border-red-400' : 'border-neutral-200 hover:border-neutral-300'}`}
        {...props}
      />
      {error ? (
        <p id={messageId} className="mt-1.5 text-[13px] text-red-600">
          {error}
        </p>
      ) : hint ? (
        <p id={messageId} className="mt-1.5 text-[13px] text-neutral-500">
          {hint}
        </p>
      ) : null}
    </div>
  );
});

/** The server's message under a form. */
export function FormError({ message, title }: { message: string | null; title?: string }) {
  if (!message) return null;
  return (
    <p role="alert" className="rounded-xl border border-red-200 bg-red-50 px-3.5 py-2.5 text-sm text-red-700">
      {title && <strong className="block font-semibold">{title}</strong>}
      {message}
    </p>
  );
}

/** A thin rule with a word in the middle, between the password form and Google. */
export function OrDivider({ label }: { label: string }) {
  return (
    <div className="my-5 flex items-center gap-3 text-xs font-medium tracking-wide text-neutral-500 uppercase">
      <span className="h-px flex-1 bg-neutral-200" />
      {label}
      <span className="h-px flex-1 bg-neutral-200" />
    </div>
  );
}
