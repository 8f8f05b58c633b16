import { Link } from 'react-router-dom';
import { env } from '../../../lib/env.ts';
import { PRICES } from '../../../lib/constants.ts';
import { formatPrice } from '../../../lib/formatting.ts';
import type { LegalSection } from './legal-document.tsx';

export const TERMS_UPDATED = '1 November 2026';

export const termsIntro = (
  <p>
    These terms govern your use of Obyect, a web library of advertising creatives from direct-to-consumer brands, and the paid
    subscription that unlocks it. By creating an account or using the service you agree to them. Please also read our{' '}
    <Link to="/privacy" className="font-medium text-neutral-950 underline">
      Privacy Policy
    </Link>
    , which explains how we handle your personal data.
  </p>
);

export function termsSections(): LegalSection[] {
  const mail = <a href={`mailto:${env.contactEmail}`}>{env.contactEmail}</a>;
  return [
    {
      id: 'eligibility',
      heading: 'Who may use Obyect',
      body: (
        <>
          <p>
            You must be at least 18 years old to create an account or buy a subscription. By signing up you confirm that you are
            18 or older and able to enter into a binding contract. Obyect is a professional tool for marketers and is not directed
            at children.
          </p>
        </>
      ),
    },
    {
      id: 'accounts',
      heading: 'Your account',
      body: (
        <>
          <p>
            You can sign up with your email address and a password, which we ask you to confirm through a link we email to you, or
            sign in with Google. When you use Google sign-in, Google confirms your identity and shares your name, email address and
            profile picture with us; your Google password is never shared with us.
          </p>
          <p>
            Keep your credentials to yourself and tell us at once if you think someone else has used your account. You are
            responsible for what happens under your account. One account is for one person.
          </p>
        </>
      ),
    },
    {
      id: 'subscriptions',
      heading: 'Subscriptions, trial and payment',
      body: (
        <>
          <p>
            Anyone can browse part of the library. A subscription unlocks every ad. Plans are billed monthly ({formatPrice(PRICES.monthly.perPeriodCents)}{' '}
            per month) or annually ({formatPrice(PRICES.annual.perPeriodCents)} per year), including any VAT that applies. New subscriptions start with a
            7-day free trial: nothing is charged today, and the first payment is taken when the trial ends unless you cancel before then.
          </p>
          <p>
            Payments are processed by our payment provider, Stripe. Your card details are entered on Stripe&apos;s secure checkout
            page and stored by Stripe, never by us. Subscriptions renew automatically at the end of each billing period until you
            cancel.
          </p>
          <p>
            You can cancel at any time from your profile. After cancelling you keep access until the end of the period you have paid
            for; we do not refund partial periods, except where the law requires it. If a payment fails, access may be suspended
            until it succeeds.
          </p>
        </>
      ),
    },
    {
      id: 'library',
      heading: 'Using the library',
      body: (
        <>
          <p>
            The ads in the library were published by the brands that own them and are shown for research, reference and
            inspiration. Trademarks, logos and creatives remain the property of their owners; a subscription gives you no rights in
            them. Do not present them as your own or use them in ways that infringe their owners&apos; rights.
          </p>
          <p>You may not:</p>
          <ul>
            <li>copy, scrape or download the library in bulk, or resell or redistribute it;</li>
            <li>share your account or work around the paywall, the free-view limit or other access controls;</li>
            <li>disrupt the service, probe it for vulnerabilities without our consent, or use it to break the law.</li>
          </ul>
        </>
      ),
    },
    {
      id: 'your-content',
      heading: 'Your boards and favorites',
      body: (
        <p>
          The boards and favorites you create are yours and visible only to you. We store them to provide the service and delete
          them with your account.
        </p>
      ),
    },
    {
      id: 'termination',
      heading: 'Ending your account',
      body: (
        <>
          <p>
            You can stop using Obyect at any time and ask us to delete your account by writing to {mail}. Cancel any running
            subscription first so you are not charged again. We may suspend or close accounts that break these terms, and will tell
            you why unless the law prevents us.
          </p>
          <p>
            When an account is deleted, we delete the personal data linked to it within 30 days, except what we must keep by law
            (such as invoices, which tax law requires us to retain).
          </p>
        </>
      ),
    },
    {
      id: 'liability',
      heading: 'The service and our liability',
      body: (
        <>
          <p>
            We work to keep Obyect available and accurate, but the service is provided as it is: ads are added and removed over time,
            and we do not promise that any creative will perform for you. Nothing in these terms limits liability that cannot be
            limited by law, including for death or personal injury caused by negligence, or for fraud.
          </p>
          <p>
            Otherwise our total liability to you for any claim is limited to the amount you paid us in the 12 months before the
            claim arose.
          </p>
        </>
      ),
    },
    {
      id: 'changes',
      heading: 'Changes to these terms',
      body: (
        <p>
          We may update these terms as the service changes. If a change matters to you we will tell you by email or in the app at
          least 30 days before it takes effect; if you do not agree you can cancel before then. The date at the top shows the latest
          version.
        </p>
      ),
    },
    {
      id: 'contact',
      heading: 'Contact and governing law',
      body: (
        <p>
          These terms are governed by the laws of the country where we are established, without depriving consumers of the
          protection of the mandatory laws of the country where they live. Questions about these terms: {mail}.
        </p>
      ),
    },
  ];
}
