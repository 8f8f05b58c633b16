import type { ReactNode } from 'react';

interface ProfileCardProps {
  title: string;
  description?: string;
  children: ReactNode;
}

/** One titled section of the profile page. */
export function ProfileCard({ title, description, children }: ProfileCardProps) {
  return (
    <section aria-label={title} className="rounded-2xl border border-neutral-200/80 bg-white p-5 shadow-[0_1px_2px_rgba(0,0,0,0.04)] sm:p-6">
      <header className="mb-5">
        <h2 className="text-base font-semibold tracking-tight text-neutral-950">{title}</h2>
        {description && <p className="mt-0.5 text-sm text-neutral-500">{description}</p>}
      </header>
      {children}
    </section>
  );
}
