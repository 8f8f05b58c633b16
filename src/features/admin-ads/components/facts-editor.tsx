import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { AD_CALLS_TO_ACTION, AD_FORMATS, AD_OFFERS, AD_PLACEMENTS, AD_PLATFORMS } from '../../../lib/ad-facts.ts';
import { AD_CARD_TEXTS } from '../../../lib/ad-card-texts.ts';
import { ADMIN_TEXTS } from '../../../lib/admin-texts.ts';
import type { AdminAdFacts } from '../api/get-admin-ad-facts.ts';
import type { CatalogOption } from '../api/get-catalog-options.ts';
import type { AdsChange } from '../api/update-ads.ts';
import { factCellsOf, PLATFORM_SEPARATOR, readFactCells, type FactColumn, type FactError } from '../lib/fact-cells.ts';

const T = ADMIN_TEXTS.adminFacts;
const F = AD_CARD_TEXTS.adFacts;

const control =
  'h-9 w-full rounded-lg border border-neutral-200 bg-white px-2.5 text-[13px] text-neutral-900 focus-visible:border-neutral-950 focus-visible:outline-none aria-[invalid=true]:border-red-500';

interface FactsEditorProps {
  adId: string;
  brand: string;
  facts: AdminAdFacts;
  hooks: CatalogOption[];
  saving: boolean;
  onCancel: () => void;
  onSave: (change: AdsChange) => void;
}

/**
 * Every fact of one ad, as the CSV writes it: Save (or Enter) sends only the
 * facts that changed, Escape cancels. A value that breaks a rule is named
 * under its field in our words, and nothing is sent.
 */
export function FactsEditor({ adId, brand, facts, hooks, saving, onCancel, onSave }: FactsEditorProps) {
  const stored = factCellsOf(facts);
  const [cells, setCells] = useState(stored);
  const [errors, setErrors] = useState<FactError[]>([]);
  const formRef = useRef<HTMLFormElement>(null);
  const id = useId();
  const set = (column: FactColumn, value: string) => setCells((current) => ({ ...current, [column]: value }));
  const changed = (Object.keys(stored) as FactColumn[]).some((column) => cells[column] !== stored[column]);

  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>('input, select, textarea')?.focus();
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const read = readFactCells(cells, facts, hooks);
    setErrors(read.errors);
    if (read.errors.length > 0) {
      formRef.current?.querySelector<HTMLElement>(`[name="${read.errors[0]!.column}"]`)?.focus();
      return;
    }
    if (read.changes.length === 0) return onCancel();
    onSave({ ids: [adId], brandId: null, categoryId: null, type: { mode: 'no_change' }, addTagIds: [], removeTagIds: [], facts: read.facts });
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onCancel();
    }
  };

  const field = (column: FactColumn, input: ReactNode, wide = false) => {
    const own = errors.filter((error) => error.column === column);
    return (
      <div className={wide ? 'sm:col-span-2 lg:col-span-4' : ''}>
        {column === 'platforms' || column === 'still_running' ? (
          input
        ) : (
          <label htmlFor={`${id}-${column}`} className="mb-1 block text-xs font-medium text-neutral-600">
            {T.fields[column]}
          </label>
        )}
        {column !== 'platforms' && column !== 'still_running' && input}
        {own.map((error) => (
          <p key={error.rule} id={`${id}-${column}-error`} className="mt-1 text-xs text-red-700">
            {T.rules[error.rule]}
          </p>
        ))}
      </div>
    );
  };
  const invalid = (column: FactColumn) => ({
    'aria-invalid': errors.some((error) => error.column === column),
    'aria-describedby': errors.some((error) => error.column === column) ? `${id}-${column}-error` : undefined,
  });
  const text = (column: FactColumn, props: { type?: string; maxLength?: number; placeholder?: string } = {}) => (
    <input id={`${id}-${column}`} name={column} className={control} value={cells[column]} onChange={(event) => set(column, event.target.value)} {...props} {...invalid(column)} />
  );
  const choice = (column: FactColumn, values: readonly string[], names: Record<string, string>, emptyLabel: string = T.none) => (
    <select id={`${id}-${column}`} name={column} className={control} value={cells[column]} onChange={(event) => set(column, event.target.value)} {...invalid(column)}>
      <option value="">{emptyLabel}</option>
      {values.map((value) => (
        <option key={value} value={value}>
          {names[value] ?? value}
        </option>
      ))}
    </select>
  );
  const platforms = cells.platforms === '' ? [] : cells.platforms.split(PLATFORM_SEPARATOR);
  const togglePlatform = (name: string) =>
    set('platforms', (platforms.includes(name) ? platforms.filter((x) => x !== name) : [...platforms, name]).join(PLATFORM_SEPARATOR));
  const hookNames = Object.fromEntries(hooks.map((hook) => [hook.name, hook.name]));

  return (
    <form ref={formRef} noValidate onSubmit={submit} onKeyDown={onKeyDown} aria-label={T.editorTitle(brand)} data-testid="facts-editor" className="space-y-4 bg-amber-50/40 px-4 py-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="text-sm font-semibold text-neutral-950">{T.editorTitle(brand)}</h3>
        <p className="text-xs text-neutral-500">{T.editorHint}</p>
      </div>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {field(
          'platforms',
          <fieldset name="platforms" {...invalid('platforms')}>
            <legend className="mb-1 text-xs font-medium text-neutral-600">{T.fields.platforms}</legend>
            <div className="flex flex-wrap gap-x-3 gap-y-1.5">
              {AD_PLATFORMS.map((name) => (
                <label key={name} className="inline-flex items-center gap-1.5 text-[13px] text-neutral-800">
                  <input type="checkbox" className="h-4 w-4 accent-neutral-950" checked={platforms.includes(name)} onChange={() => togglePlatform(name)} />
                  {F.platformNames[name]}
                </label>
              ))}
            </div>
          </fieldset>,
          true,
        )}
        {field('format', choice('format', AD_FORMATS, F.formatNames))}
        {field('placement', choice('placement', AD_PLACEMENTS, F.placementNames, T.placementDerived))}
        {field('offer', choice('offer', AD_OFFERS, F.offerNames))}
        {field('call_to_action', choice('call_to_action', AD_CALLS_TO_ACTION, F.callToActionNames))}
        {field('hook', choice('hook', Object.keys(hookNames), hookNames))}
        {field('first_seen', text('first_seen', { type: 'date' }))}
        {field('last_seen', text('last_seen', { type: 'date' }))}
        {field(
          'still_running',
          <label className="mt-6 inline-flex items-center gap-2 text-[13px] font-medium text-neutral-800">
            <input
              type="checkbox"
              name="still_running"
              className="h-4 w-4 accent-neutral-950"
              checked={cells.still_running === 'true'}
              onChange={(event) => set('still_running', event.target.checked ? 'true' : 'false')}
              {...invalid('still_running')}
            />
            {T.fields.still_running}
          </label>,
        )}
        {field('headline', text('headline'), true)}
        {field(
          'primary_text',
          <textarea
            id={`${id}-primary_text`}
            name="primary_text"
            rows={3}
            className={`${control} h-auto py-2`}
            value={cells.primary_text}
            onChange={(event) => set('primary_text', event.target.value)}
            {...invalid('primary_text')}
          />,
          true,
        )}
        {field('landing_url', text('landing_url', { type: 'url', placeholder: 'https://' }), true)}
        {field('language', text('language', { placeholder: 'en' }))}
        {field('country', text('country', { placeholder: 'US' }))}
      </div>
      <div className="flex justify-end gap-2">
        <Button variant="ghost" size="sm" onClick={onCancel}>
          {ADMIN_TEXTS.adminAds.cancel}
        </Button>
        <Button type="submit" size="sm" disabled={!changed || saving}>
          {ADMIN_TEXTS.adminAds.save}
        </Button>
      </div>
    </form>
  );
}
