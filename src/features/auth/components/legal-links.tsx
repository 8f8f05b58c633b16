import { Link } from 'react-router-dom';
import { BILLING_TEXTS } from '../../../lib/billing-texts.ts';
import { SHELL_TEXTS } from '../../../lib/shell-texts.ts';

/** 'By … you agree to our Terms and Privacy', beneath the account cards. */
export function LegalLinks({ prefix }: { prefix: string }) {
  return (
    <p className="text-[13px] leading-relaxed">
      {prefix}{' '}
      <Link to="/terms" className="underline underline-offset-2 hover:text-neutral-900">
        {SHELL_TEXTS.footer.terms}
      </Link>{' '}
      {BILLING_TEXTS.pricing.and}{' '}
      <Link to="/privacy" className="underline underline-offset-2 hover:text-neutral-900">
        {SHELL_TEXTS.footer.privacy}
      </Link>
      .
    </p>
  );
}
