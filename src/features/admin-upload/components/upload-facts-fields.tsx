import type { ReactNode } from 'react';
import { Select } from '../../../components/ui/select.tsx';
import { AD_CALLS_TO_ACTION, AD_FORMATS, AD_OFFERS, AD_PLACEMENTS, AD_PLATFORMS, HEADLINE_MAX_LENGTH, LANDING_URL_MAX_LENGTH, PRIMARY_TEXT_MAX_LENGTH } from '../../../lib/ad-facts.ts';
import { AD_CARD_TEXTS } from '../../../lib/ad-card-texts.ts';
import { ADMIN_TEXTS } from '../../../lib/admin-texts.ts';
import type { UploadCatalogItem } from '../api/upload-services.ts';
import type { FileFactsOverrides, UploadFactKey, UploadFactsForm } from '../lib/upload-facts.ts';

const T = ADMIN_TEXTS.adminUpload.facts;
const N = AD_CARD_TEXTS.adFacts;

export const FACT_LABELS: Record<UploadFactKey, string> = {
  platforms: T.platforms,
  placement: T.placement,
  format: T.format,
  offer: T.offer,
  hook_id: T.hook,
  first_seen: T.firstSeen,
  last_seen: T.lastSeen,
  still_running: T.stillRunning,
  landing_url: T.landingUrl,
  call_to_action: T.callToAction,
  language: T.language,
  country: T.country,
  headline: T.headline,
  primary_text: T.primaryText,
};

const FIELD = 'h-10 w-full min-w-0 rounded-xl border bg-white px-3 text-sm text-neutral-900 placeholder:text-neutral-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-neutral-950 disabled:opacity-60';
const SELECT = 'w-full [&_select]:w-full [&_select]:max-w-none';

type Values = Partial<UploadFactsForm & { headline: string; primary_text: string }>;

interface UploadFactsFieldsProps {
  /** 'batch': the facts of every file; 'file': one file's own, where empty means "as for all files". */
  mode: 'batch' | 'file';
  values: Values;
  /** The batch's facts, which a file's empty fields take. */
  batch: UploadFactsForm;
  onSet: <K extends UploadFactKey>(key: K, value: FileFactsOverrides[K] | undefined) => void;
  hooks: UploadCatalogItem[];
  invalid?: UploadFactKey[];
  disabled?: boolean;
  idPrefix: string;
}

/** The fact fields of the upload, for all files or for one. */
export function UploadFactsFields({ mode, values, batch, onSet, hooks, invalid = [], disabled = false, idPrefix }: UploadFactsFieldsProps) {
  const file = mode === 'file';
  const border = (key: UploadFactKey) => (invalid.includes(key) ? 'border-red-500' : 'border-neutral-200');
  const id = (key: UploadFactKey) => `${idPrefix}-${key}`;
  // Empty in a file's fields gives the value back to the batch; in the batch's, it is "not given".
  const setText = (key: UploadFactKey, value: string) => onSet(key, (file && value === '' ? undefined : value) as never);

  const field = (key: UploadFactKey, control: ReactNode, wide = false) => (
    <div className={`min-w-0 space-y-1 ${wide ? 'sm:col-span-2' : ''}`}>
      <label htmlFor={id(key)} className="block text-xs font-medium text-neutral-600">
        {FACT_LABELS[key]}
      </label>
      {control}
    </div>
  );

  const choice = <V extends string>(key: 'placement' | 'format' | 'offer' | 'call_to_action' | 'hook_id', options: ReadonlyArray<readonly [V, string]>, emptyLabel: string) =>
    field(
      key,
      <Select
        id={id(key)}
        value={(values[key] as string | undefined) ?? ''}
        disabled={disabled}
        aria-invalid={invalid.includes(key) || undefined}
        onChange={(event) => setText(key, event.target.value)}
        className={SELECT}
      >
        <option value="">{file ? T.asBatch : emptyLabel}</option>
        {options.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </Select>,
    );

  const text = (key: 'landing_url' | 'language' | 'country' | 'first_seen' | 'last_seen' | 'headline', type: string, extra: { maxLength?: number; placeholder?: string } = {}, wide = false) =>
    field(
      key,
      <input
        id={id(key)}
        type={type}
        value={(values[key] as string | undefined) ?? ''}
        disabled={disabled}
        aria-invalid={invalid.includes(key) || undefined}
        onChange={(event) => setText(key, event.target.value)}
        maxLength={extra.maxLength}
        placeholder={file ? ((batch[key as keyof UploadFactsForm] as string | undefined) || extra.placeholder) : extra.placeholder}
        className={`${FIELD} ${border(key)}`}
      />,
      wide,
    );

  const platforms = values.platforms ?? batch.platforms;
  const togglePlatform = (platform: (typeof AD_PLATFORMS)[number]) =>
    onSet('platforms', platforms.includes(platform) ? platforms.filter((p) => p !== platform) : [...platforms, platform]);

  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <fieldset className="min-w-0 sm:col-span-2" aria-invalid={invalid.includes('platforms') || undefined}>
        <legend className="mb-1 text-xs font-medium text-neutral-600">{T.platforms}</legend>
        <div className="flex flex-wrap gap-1.5">
          {AD_PLATFORMS.map((platform) => {
            const on = platforms.includes(platform);
            return (
              <button
                key={platform}
                type="button"
                aria-pressed={on}
                disabled={disabled}
                onClick={() => togglePlatform(platform)}
                className={`h-8 rounded-full border px-3 text-[13px] font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-neutral-950 disabled:opacity-60 ${
                  on ? 'border-neutral-950 bg-neutral-950 text-white' : 'border-neutral-200 bg-white text-neutral-700 hover:border-neutral-300'
                }`}
              >
                {N.platformNames[platform]}
              </button>
            );
          })}
        </div>
      </fieldset>
      {choice('format', AD_FORMATS.map((v) => [v, N.formatNames[v]] as const), T.notSet)}
      {choice('placement', AD_PLACEMENTS.map((v) => [v, N.placementNames[v]] as const), T.placementFromSize)}
      {choice('offer', AD_OFFERS.map((v) => [v, N.offerNames[v]] as const), T.notSet)}
      {choice('hook_id', hooks.map((hook) => [hook.id, hook.name] as const), T.notSet)}
      {choice('call_to_action', AD_CALLS_TO_ACTION.map((v) => [v, N.callToActionNames[v]] as const), T.notSet)}
      {text('landing_url', 'url', { maxLength: LANDING_URL_MAX_LENGTH, placeholder: T.landingUrlPlaceholder })}
      {text('first_seen', 'date')}
      {text('last_seen', 'date')}
      {file
        ? field(
            'still_running',
            <Select
              id={id('still_running')}
              value={values.still_running === undefined ? '' : values.still_running ? 'yes' : 'no'}
              disabled={disabled}
              onChange={(event) => onSet('still_running', event.target.value === '' ? undefined : event.target.value === 'yes')}
              className={SELECT}
            >
              <option value="">{T.asBatch}</option>
              <option value="yes">{T.yes}</option>
              <option value="no">{T.no}</option>
            </Select>,
          )
        : (
          <label className={`flex h-10 items-center gap-2 self-end text-sm text-neutral-800 ${invalid.includes('still_running') ? 'text-red-700' : ''}`}>
            <input
              id={id('still_running')}
              type="checkbox"
              checked={values.still_running ?? false}
              disabled={disabled}
              onChange={(event) => onSet('still_running', event.target.checked)}
              className="h-4 w-4 accent-neutral-950"
            />
            {T.stillRunning}
          </label>
        )}
      <div className="grid grid-cols-2 gap-3">
        {text('language', 'text', { maxLength: 2, placeholder: T.languagePlaceholder })}
        {text('country', 'text', { maxLength: 2, placeholder: T.countryPlaceholder })}
      </div>
      {file && text('headline', 'text', { maxLength: HEADLINE_MAX_LENGTH }, true)}
      {file &&
        field(
          'primary_text',
          <textarea
            id={id('primary_text')}
            value={values.primary_text ?? ''}
            disabled={disabled}
            rows={2}
            maxLength={PRIMARY_TEXT_MAX_LENGTH}
            aria-invalid={invalid.includes('primary_text') || undefined}
            onChange={(event) => setText('primary_text', event.target.value)}
            className={`${FIELD} h-auto py-2 ${border('primary_text')}`}
          />,
          true,
        )}
    </div>
  );
}
