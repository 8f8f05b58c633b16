import {
  adFactsChangeSchema,
  type AdCallToAction,
  type AdFactsChange,
  type AdFormat,
  type AdOffer,
  type AdPlacement,
  type AdPlatform,
} from '../../../lib/ad-facts.ts';

/**
 * The facts of an upload as the form holds them: '' is "not given". A batch
 * holds one set for every file; a file may override any of them, and give its
 * own headline and primary text. Placement left empty is derived by the
 * database from the image's size (docs/decisions/0031).
 */
export interface UploadFactsForm {
  platforms: AdPlatform[];
  placement: AdPlacement | '';
  format: AdFormat | '';
  offer: AdOffer | '';
  hook_id: string;
  first_seen: string;
  last_seen: string;
  still_running: boolean;
  landing_url: string;
  call_to_action: AdCallToAction | '';
  language: string;
  country: string;
}

export interface FileOnlyFacts {
  headline: string;
  primary_text: string;
}

/** A file's own values: a key given replaces the batch's. */
export type FileFactsOverrides = Partial<UploadFactsForm & FileOnlyFacts>;
export type UploadFactKey = keyof UploadFactsForm | keyof FileOnlyFacts;

export const EMPTY_UPLOAD_FACTS: UploadFactsForm = {
  platforms: [],
  placement: '',
  format: '',
  offer: '',
  hook_id: '',
  first_seen: '',
  last_seen: '',
  still_running: false,
  landing_url: '',
  call_to_action: '',
  language: '',
  country: '',
};

/** What a file is uploaded with: the batch's facts, each replaced by the file's own where it has one. */
export function factsOfFile(batch: UploadFactsForm, overrides: FileFactsOverrides): UploadFactsForm & FileOnlyFacts {
  const own = Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined));
  return { ...batch, headline: '', primary_text: '', ...own };
}

const given = (value: string) => (value.trim() === '' ? null : value.trim());

export type CheckedFacts = { ok: true; facts: Required<AdFactsChange> } | { ok: false; fields: UploadFactKey[] };

/**
 * The facts the row is inserted with, checked by the same zod schema as the
 * admin's edits (src/lib/ad-facts.ts): every fact given, null where empty.
 * When a value breaks a rule, the fields at fault instead.
 */
export function checkUploadFacts(values: UploadFactsForm & FileOnlyFacts): CheckedFacts {
  const facts = {
    platforms: values.platforms.length > 0 ? [...values.platforms] : null,
    placement: values.placement || null,
    format: values.format || null,
    first_seen: given(values.first_seen),
    last_seen: given(values.last_seen),
    still_running: values.still_running,
    landing_url: given(values.landing_url),
    primary_text: given(values.primary_text),
    headline: given(values.headline),
    call_to_action: values.call_to_action || null,
    offer: values.offer || null,
    hook_id: values.hook_id || null,
    language: given(values.language)?.toLowerCase() ?? null,
    country: given(values.country)?.toUpperCase() ?? null,
  };
  const checked = adFactsChangeSchema.safeParse(facts);
  if (checked.success) return { ok: true, facts: checked.data as Required<AdFactsChange> };
  const fields = [...new Set(checked.error.issues.map((issue) => String(issue.path[0] ?? '')))].filter((key): key is UploadFactKey => key in values);
  return { ok: false, fields };
}
