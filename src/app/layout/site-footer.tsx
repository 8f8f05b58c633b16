import { Link } from 'react-router-dom';
import { env } from '../../lib/env.ts';
import { SHELL_TEXTS } from '../../lib/shell-texts.ts';

/** The footer of every non-auth page: Terms, Privacy and a mail link to us. */
export function SiteFooter() {
  return (
    <footer className="border-t border-neutral-200/70 bg-white">
      <div className="mx-auto flex max-w-[1600px] flex-col items-center justify-between gap-3 px-4 py-6 text-sm text-neutral-500 sm:flex-row sm:px-6 lg:px-8">
        <p>© {new Date().getFullYear()} Obyect</p>
        <nav aria-label="Footer" className="flex items-center gap-5">
          <Link to="/terms" className="rounded hover:text-neutral-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-neutral-950">
            {SHELL_TEXTS.footer.terms}
          </Link>
          <Link to="/privacy" className="rounded hover:text-neutral-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-neutral-950">
            {SHELL_TEXTS.footer.privacy}
          </Link>
          <a href={`mailto:${env.contactEmail}`} className="rounded hover:text-neutral-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-neutral-950">
            {SHELL_TEXTS.footer.contact}
          </a>
        </nav>
      </div>
    </footer>
  );
}
