import { AD_CALLS_TO_ACTION, AD_FORMATS, AD_OFFERS, AD_PLACEMENTS, AD_PLATFORMS, type AdFactsChange, type AdPlatform } from '../../../lib/ad-facts.ts';
import { AD_CARD_TEXTS } from '../../../lib/ad-card-texts.ts';
import { ADMIN_TEXTS } from '../../../lib/admin-texts.ts';
import type { CatalogOption } from '../api/get-catalog-options.ts';

const T = ADMIN_TEXTS.adminFacts;
const F = AD_CARD_TEXTS.adFacts;
const NO_CHANGE = '__no_change__';
const CLEAR = '__clear__';
const SET = '__set__';

const selectClasses =
  'h-9 w-full rounded-lg border border-neutral-200 bg-white px-2.5 text-[13px] font-medium text-neutral-800 focus-visible:border-neutral-950 focus-visible:outline-none';

type ChoiceKey = 'format' | 'placement' | 'offer' | 'call_to_action' | 'hook_id';
type DateKey = 'first_seen' | 'last_seen';

interface BulkFactsProps {
  facts: AdFactsChange;
  onChange: (facts: AdFactsChange) => void;
  hooks: CatalogOption[];
}

/**
 * The facts to set on every selected ad. Each starts at 'no change', which
 * leaves it out of the edit (admin_update_ads keeps it); 'clear' sends null.
 */
export function BulkFacts({ facts, onChange, hooks }: BulkFactsProps) {
  const without = (key: keyof AdFactsChange) => Object.fromEntries(Object.entries(facts).filter(([name]) => name !== key)) as AdFactsChange;
  const put = (key: keyof AdFactsChange, mode: string, value: unknown) => onChange(mode === NO_CHANGE ? without(key) : { ...without(key), [key]: mode === CLEAR ? null : value });
  const modeOf = (key: keyof AdFactsChange) => (!(key in facts) ? NO_CHANGE : facts[key] === null ? CLEAR : SET);

  const choice = (key: ChoiceKey, label: string, options: { value: string; name: string }[]) => (
    <label className="block">
      <span className="mb-1 block text-xs font-medium text-neutral-600">{label}</span>
      <select
        aria-label={label}
        className={selectClasses}
        value={modeOf(key) === SET ? String(facts[key]) : modeOf(key)}
        onChange={(event) => {
          const value = event.target.value;
          put(key, value === NO_CHANGE || value === CLEAR ? value : SET, value);
        }}
      >
        <option value={NO_CHANGE}>{T.bulk.noChange}</option>
        <option value={CLEAR}>{T.bulk.clear}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.name}
          </option>
        ))}
      </select>
    </label>
  );
  const named = (values: readonly string[], names: Record<string, string>) => values.map((value) => ({ value, name: names[value] ?? value }));

  const date = (key: DateKey) => (
    <div>
      <label className="block">
        <span className="mb-1 block text-xs font-medium text-neutral-600">{T.fields[key]}</span>
        <select aria-label={T.fields[key]} className={selectClasses} value={modeOf(key)} onChange={(event) => put(key, event.target.value, facts[key] ?? '')}>
          <option value={NO_CHANGE}>{T.bulk.noChange}</option>
          <option value={CLEAR}>{T.bulk.clear}</option>
          <option value={SET}>{T.bulk.set}</option>
        </select>
      </label>
      {modeOf(key) === SET && (
        <input
          type="date"
          aria-label={T.bulk.dateOf(T.fields[key])}
          className={`${selectClasses} mt-1.5`}
          value={facts[key] ?? ''}
          onChange={(event) => put(key, SET, event.target.value)}
        />
      )}
    </div>
  );

  const platforms = (facts.platforms ?? []) as AdPlatform[];
  return (
    <div role="group" aria-label={T.bulk.groupLabel} className="grid w-full gap-3 border-t border-neutral-950/10 pt-3 sm:grid-cols-2 lg:grid-cols-4">
      <div className="sm:col-span-2">
        <label className="block">
          <span className="mb-1 block text-xs font-medium text-neutral-600">{T.fields.platforms}</span>
          <select aria-label={T.fields.platforms} className={selectClasses} value={modeOf('platforms')} onChange={(event) => put('platforms', event.target.value, [])}>
            <option value={NO_CHANGE}>{T.bulk.noChange}</option>
            <option value={CLEAR}>{T.bulk.clear}</option>
            <option value={SET}>{T.bulk.set}</option>
          </select>
        </label>
        {modeOf('platforms') === SET && (
          <div className="mt-1.5 flex flex-wrap gap-x-3 gap-y-1.5">
            {AD_PLATFORMS.map((name) => (
              <label key={name} className="inline-flex items-center gap-1.5 text-[13px] text-neutral-800">
                <input
                  type="checkbox"
                  className="h-4 w-4 accent-neutral-950"
                  checked={platforms.includes(name)}
                  onChange={() => put('platforms', SET, platforms.includes(name) ? platforms.filter((x) => x !== name) : [...platforms, name])}
                />
                {F.platformNames[name]}
              </label>
            ))}
          </div>
        )}
      </div>
      {choice('format', T.fields.format, named(AD_FORMATS, F.formatNames))}
      {choice('placement', T.fields.placement, named(AD_PLACEMENTS, F.placementNames))}
      {choice('offer', T.fields.offer, named(AD_OFFERS, F.offerNames))}
      {choice('call_to_action', T.fields.call_to_action, named(AD_CALLS_TO_ACTION, F.callToActionNames))}
      {choice('hook_id', T.fields.hook, hooks.map((hook) => ({ value: hook.id, name: hook.name })))}
      <label className="block">
        <span className="mb-1 block text-xs font-medium text-neutral-600">{T.fields.still_running}</span>
        <select
          aria-label={T.fields.still_running}
          className={selectClasses}
          value={'still_running' in facts ? String(facts.still_running) : NO_CHANGE}
          onChange={(event) => put('still_running', event.target.value === NO_CHANGE ? NO_CHANGE : SET, event.target.value === 'true')}
        >
          <option value={NO_CHANGE}>{T.bulk.noChange}</option>
          <option value="true">{T.bulk.running}</option>
          <option value="false">{T.bulk.ended}</option>
        </select>
      </label>
      {date('first_seen')}
      {date('last_seen')}
    </div>
  );
}

/** The bulk facts the admin set, or the rule one of them breaks (a platform list left empty, a date not filled in). */
export function bulkFactsProblem(facts: AdFactsChange): keyof typeof T.bulk.problems | null {
  if (Array.isArray(facts.platforms) && facts.platforms.length === 0) return 'platforms';
  if (facts.first_seen === '') return 'first_seen';
  if (facts.last_seen === '') return 'last_seen';
  if (facts.first_seen && facts.last_seen && facts.first_seen > facts.last_seen) return 'seen_order';
  return null;
}
