import type { ReactNode } from 'react';
import { MAIN_CONTENT_ID } from '../../../lib/constants.ts';

export interface LegalSection {
  id: string;
  heading: string;
  body: ReactNode;
}

interface LegalDocumentProps {
  title: string;
  updated: string;
  intro: ReactNode;
  sections: LegalSection[];
}

/** A legal page: title, date, contents with anchors, then numbered sections in a readable measure. */
export function LegalDocument({ title, updated, intro, sections }: LegalDocumentProps) {
  return (
    <main id={MAIN_CONTENT_ID} className="mx-auto max-w-3xl px-4 pt-8 pb-16 sm:px-6 sm:pt-12">
      <h1 className="text-3xl font-bold tracking-tight text-neutral-950 sm:text-4xl">{title}</h1>
      <p className="mt-2 text-sm text-neutral-600">Last updated: {updated}</p>
      <div className="mt-6 space-y-4 text-[15px] leading-7 text-neutral-800">{intro}</div>
      <nav aria-label="Contents" className="mt-8 rounded-2xl border border-neutral-200 bg-white p-5">
        <p className="text-sm font-semibold text-neutral-950">Contents</p>
        <ol className="mt-3 grid gap-1.5 text-sm sm:grid-cols-2">
          {sections.map((section, index) => (
            <li key={section.id}>
              <a href={`#${section.id}`} className="text-neutral-700 underline-offset-2 hover:text-neutral-950 hover:underline">
                {index + 1}. {section.heading}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      <div className="mt-10 space-y-10">
        {sections.map((section, index) => (
          <section key={section.id} id={section.id} aria-labelledby={`${section.id}-heading`} className="scroll-mt-24">
            <h2 id={`${section.id}-heading`} className="text-xl font-semibold tracking-tight text-neutral-950">
              {index + 1}. {section.heading}
            </h2>
            <div className="mt-3 space-y-3 text-[15px] leading-7 text-neutral-800 [&_a]:font-medium [&_a]:text-neutral-950 [&_a]:underline [&_li]:ml-5 [&_li]:list-disc">
              {section.body}
            </div>
          </section>
        ))}
      </div>
    </main>
  );
}
