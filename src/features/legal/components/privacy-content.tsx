import { Link } from 'react-router-dom';
import { env } from '../../../lib/env.ts';
import type { LegalSection } from './legal-document.tsx';

export const PRIVACY_UPDATED = '1 November 2026';

export const privacyIntro = (
  <p>
    This policy explains what personal data Obyect collects when you browse the library, create an account or subscribe, why we
    use it, who helps us process it, and the rights you have under the EU General Data Protection Regulation (GDPR). It applies
    together with our{' '}
    <Link to="/terms" className="font-medium text-neutral-950 underline">
      Terms of Service
    </Link>
    .
  </p>
);

export function privacySections(): LegalSection[] {
  const mail = <a href={`mailto:${env.contactEmail}`}>{env.contactEmail}</a>;
  return [
    {
      id: 'controller',
      heading: 'Who is responsible',
      body: <p>Obyect is the controller of the personal data described here. You can reach us about anything in this policy at {mail}.</p>,
    },
    {
      id: 'data',
      heading: 'What we collect',
      body: (
        <ul>
          <li>
            <strong>Account data</strong>: your first and last name, email address and a hashed version of your password, and
            whether and when you confirmed your email address.
          </li>
          <li>
            <strong>Google sign-in</strong>: if you choose Sign in with Google, Google shares your name, email address and profile
            picture with us so we can create and recognise your account. We do not receive your Google password or access to your
            other Google data.
          </li>
          <li>
            <strong>Subscription data</strong>: your plan, its status and renewal date, and the customer and subscription references
            our payment provider Stripe gives us. Card details go directly to Stripe; we never see or store them.
          </li>
          <li>
            <strong>What you save</strong>: your favorites and boards, and which ads you have been shown.
          </li>
          <li>
            <strong>On your device</strong>: your signed-in session and a count of ads viewed without an account are kept in your
            browser&apos;s local storage; a cookie remembers for 7 days whether the sidebar is open. These are needed for the
            service to work; we use no advertising or tracking cookies.
          </li>
          <li>
            <strong>Technical data</strong>: server logs with IP address, browser type and time of request, kept briefly for
            security and troubleshooting.
          </li>
        </ul>
      ),
    },
    {
      id: 'purposes',
      heading: 'Why we use it and on what legal basis',
      body: (
        <ul>
          <li>To provide your account, the library, your boards and your subscription: performance of our contract with you.</li>
          <li>To take payments and keep invoices: performance of the contract and our legal obligations under tax law.</li>
          <li>To keep the service secure and prevent abuse of the free limits: our legitimate interest in a safe service.</li>
          <li>To send emails you ask for (confirmation, password reset) and essential notices about your subscription: the contract.</li>
        </ul>
      ),
    },
    {
      id: 'processors',
      heading: 'Who processes it for us',
      body: (
        <>
          <p>We share personal data only with providers that help us run Obyect, under data processing agreements:</p>
          <ul>
            <li>Supabase, which hosts our database, authentication and file storage;</li>
            <li>Stripe, our payment provider, which processes payments and stores card details as an independent controller for its own legal duties;</li>
            <li>Google, when you choose to sign in with Google.</li>
          </ul>
          <p>
            Where a provider processes data outside the European Economic Area, the transfer is covered by the European
            Commission&apos;s standard contractual clauses or an adequacy decision. We never sell your personal data.
          </p>
        </>
      ),
    },
    {
      id: 'retention',
      heading: 'How long we keep it',
      body: (
        <p>
          We keep your data while your account exists. When you delete your account, we delete your personal data, boards and
          favorites within 30 days after the account deletion. Invoices and payment records are kept for as long as tax law requires
          (usually up to 7 years). Server logs are deleted after 30 days.
        </p>
      ),
    },
    {
      id: 'rights',
      heading: 'Your rights under the GDPR',
      body: (
        <>
          <p>You have the right to:</p>
          <ul>
            <li>access the personal data we hold about you and receive a copy;</li>
            <li>have inaccurate data corrected (you can change your name and email in your profile);</li>
            <li>have your data erased, including by deleting your account;</li>
            <li>restrict or object to processing based on our legitimate interests;</li>
            <li>receive your data in a portable, machine-readable format;</li>
            <li>withdraw any consent you gave, without affecting earlier processing;</li>
            <li>lodge a complaint with the data protection authority where you live or work.</li>
          </ul>
          <p>To use any of these rights, write to {mail}. We answer within one month.</p>
        </>
      ),
    },
    {
      id: 'age',
      heading: 'Age requirement',
      body: (
        <p>
          Obyect is for people aged 18 and over. We do not knowingly collect data from anyone under 18; if you believe a minor has
          created an account, tell us and we will delete it.
        </p>
      ),
    },
    {
      id: 'security',
      heading: 'Security',
      body: (
        <p>
          Data travels encrypted over HTTPS, passwords are stored only as salted hashes, and access to your data in our database is
          limited by row-level security to you and to the systems that need it.
        </p>
      ),
    },
    {
      id: 'changes',
      heading: 'Changes to this policy',
      body: <p>If we change this policy in a way that matters to you, we will tell you by email or in the app before the change takes effect.</p>,
    },
  ];
}
