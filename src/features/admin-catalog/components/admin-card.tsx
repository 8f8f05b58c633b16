import type { ReactNode } from 'react';

interface AdminCardProps {
  title: string;
  description?: string;
  actions?: ReactNode;
  children: ReactNode;
}

/** One titled card of the admin page. */
export function AdminCard({ title, description, actions, children }: AdminCardProps) {
  return (
    <section aria-label={title} className="rounded-2xl border border-neutral-200/80 bg-white p-4 shadow-[0_1px_2px_rgba(0,0,0,0.04)] sm:p-6">
      <header className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="text-base font-semibold tracking-tight text-neutral-950">{title}</h2>
          {description && <p className="mt-0.5 text-sm text-neutral-500">{description}</p>}
        </div>
        {actions}
      </header>
      {children}
    </section>
  );
}
