import type { ReactNode, SelectHTMLAttributes } from 'react';
import { ChevronDownIcon } from './icons.tsx';

interface SelectProps extends SelectHTMLAttributes<HTMLSelectElement> {
  icon?: ReactNode;
  active?: boolean;
}

/** A native select styled as a filter pill: accessible, and the platform picker on phones. */
export function Select({ icon, active = false, className = '', children, ...props }: SelectProps) {
  return (
    <span className={`relative inline-flex shrink-0 items-center ${className}`}>
      {icon && <span className="pointer-events-none absolute left-3 text-neutral-500">{icon}</span>}
      <select
        className={`h-10 max-w-[14rem] cursor-pointer appearance-none truncate rounded-xl border py-0 pr-9 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-neutral-950 ${
          icon ? 'pl-9' : 'pl-3.5'
        } ${active ? 'border-neutral-950 bg-neutral-950 text-white' : 'border-neutral-200 bg-white text-neutral-800 hover:border-neutral-300'}`}
        {...props}
      >
        {children}
      </select>
      <ChevronDownIcon className={`pointer-events-none absolute right-3 h-4 w-4 ${active ? 'text-white' : 'text-neutral-500'}`} />
    </span>
  );
}
