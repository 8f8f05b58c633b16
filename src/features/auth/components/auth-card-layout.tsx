import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ACCOUNT_TEXTS } from '../../../lib/account-texts.ts';
import { MAIN_CONTENT_ID } from '../../../lib/constants.ts';

interface AuthCardLayoutProps {
  title: string;
  subtitle?: string;
  children: ReactNode;
  /** Below the card: links to the other account screens. */
  footer?: ReactNode;
}

/** The account screens' frame: the logo, one centred card, and links beneath it. */
export function AuthCardLayout({ title, subtitle, children, footer }: AuthCardLayoutProps) {
  return (
    <div className="flex min-h-dvh flex-col bg-neutral-50 text-neutral-950">
      <header className="flex h-14 items-center px-4 sm:h-16 sm:px-6 lg:px-8">
        <Link to="/library" className="flex items-center gap-2 text-neutral-950" aria-label="Obyect – Library">
          <img src="/favicon.svg" alt="" className="h-7 w-7" />
          <span className="text-[17px] font-bold tracking-tight">{ACCOUNT_TEXTS.account.brand}</span>
        </Link>
      </header>
      <main id={MAIN_CONTENT_ID} className="flex flex-1 flex-col items-center px-4 pt-4 pb-16 sm:justify-center sm:pt-0">
        <div className="w-full max-w-[420px]">
          <div className="rounded-3xl border border-neutral-200/80 bg-white px-5 py-7 shadow-[0_1px_2px_rgba(0,0,0,0.04),0_8px_32px_-12px_rgba(0,0,0,0.12)] sm:px-8 sm:py-9">
            <div className="mb-6 text-center">
              <h1 className="text-2xl font-bold tracking-tight text-neutral-950">{title}</h1>
              {subtitle && <p className="mt-1.5 text-[15px] text-neutral-500">{subtitle}</p>}
            </div>
            {children}
          </div>
          {footer && <div className="mt-6 text-center text-sm text-neutral-500">{footer}</div>}
        </div>
      </main>
    </div>
  );
}
