import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { ADMIN_TEXTS } from '../../../lib/admin-texts.ts';
import type { CatalogOption } from '../api/get-catalog-options.ts';
import { changesSomething, type AdsChange, type TypeChange } from '../api/update-ads.ts';
import type { AdFactsChange } from '../../../lib/ad-facts.ts';
import { BulkFacts, bulkFactsProblem } from './bulk-facts.tsx';
import { TagPicker } from './tag-picker.tsx';

const T = ADMIN_TEXTS.adminAds;
const TF = ADMIN_TEXTS.adminFacts;
const NO_CHANGE = '__no_change__';
const CLEAR = '__clear__';

const selectClasses =
  'h-9 max-w-full rounded-lg sm:max-w-[13rem] border border-neutral-200 bg-white px-2.5 text-[13px] font-medium text-neutral-800 focus-visible:border-neutral-950 focus-visible:outline-none';

interface BulkBarProps {
  count: number;
  brands: CatalogOption[];
  categories: CatalogOption[];
  types: CatalogOption[];
  tags: CatalogOption[];
  hooks: CatalogOption[];
  pending: boolean;
  onApply: (change: Omit<AdsChange, 'ids'>) => void;
  onDelete: () => void;
  onClearSelection: () => void;
}

/** Changes for every selected ad: brand, category, type ('no change' or 'clear'), tags to add and remove, facts; or delete them. */
export function BulkBar({ count, brands, categories, types, tags, hooks, pending, onApply, onDelete, onClearSelection }: BulkBarProps) {
  const [factsOpen, setFactsOpen] = useState(false);
  const [facts, setFacts] = useState<AdFactsChange>({});
  const factsProblem = bulkFactsProblem(facts);
  const [brand, setBrand] = useState(NO_CHANGE);
  const [category, setCategory] = useState(NO_CHANGE);
  const [type, setType] = useState(NO_CHANGE);
  const [addTagIds, setAddTagIds] = useState<string[]>([]);
  const [removeTagIds, setRemoveTagIds] = useState<string[]>([]);
  const toggle = (list: string[], id: string) => (list.includes(id) ? list.filter((x) => x !== id) : [...list, id]);

  const typeChange: TypeChange = type === NO_CHANGE ? { mode: 'no_change' } : type === CLEAR ? { mode: 'clear' } : { mode: 'set', typeId: type };
  const change = {
    brandId: brand === NO_CHANGE ? null : brand,
    categoryId: category === NO_CHANGE ? null : category,
    type: typeChange,
    addTagIds,
    removeTagIds,
    ...(Object.keys(facts).length > 0 ? { facts } : {}),
  };

  return (
    <div role="region" aria-label={T.selected(count)} className="flex flex-wrap items-center gap-2 rounded-xl border border-neutral-950/10 bg-neutral-950/[0.03] p-2.5">
      <span className="px-1 text-sm font-semibold text-neutral-950">{T.selected(count)}</span>
      <select aria-label={T.setBrand} className={selectClasses} value={brand} onChange={(event) => setBrand(event.target.value)}>
        <option value={NO_CHANGE}>
          {T.setBrand}: {T.noChange}
        </option>
        {brands.map((option) => (
          <option key={option.id} value={option.id}>
            {option.name}
          </option>
        ))}
      </select>
      <select aria-label={T.setCategory} className={selectClasses} value={category} onChange={(event) => setCategory(event.target.value)}>
        <option value={NO_CHANGE}>
          {T.setCategory}: {T.noChange}
        </option>
        {categories.map((option) => (
          <option key={option.id} value={option.id}>
            {option.name}
          </option>
        ))}
      </select>
      <select aria-label={T.setType} className={selectClasses} value={type} onChange={(event) => setType(event.target.value)}>
        <option value={NO_CHANGE}>
          {T.setType}: {T.noChange}
        </option>
        <option value={CLEAR}>
          {T.setType}: {T.clear}
        </option>
        {types.map((option) => (
          <option key={option.id} value={option.id}>
            {option.name}
          </option>
        ))}
      </select>
      <TagPicker label={T.addTags} tags={tags.filter((tag) => !removeTagIds.includes(tag.id))} selected={addTagIds} onToggle={(id) => setAddTagIds((list) => toggle(list, id))} emptyText={T.none} />
      <TagPicker label={T.removeTags} tags={tags.filter((tag) => !addTagIds.includes(tag.id))} selected={removeTagIds} onToggle={(id) => setRemoveTagIds((list) => toggle(list, id))} emptyText={T.none} />
      <Button size="sm" variant="outline" aria-expanded={factsOpen} onClick={() => setFactsOpen((open) => !open)}>
        {factsOpen ? TF.bulk.close : TF.bulk.open}
        {Object.keys(facts).length > 0 && ` (${Object.keys(facts).length})`}
      </Button>
      <div className="ml-auto flex flex-wrap items-center gap-2">
        <Button size="sm" disabled={pending || !changesSomething(change) || factsProblem !== null} onClick={() => onApply(change)}>
          {T.applyToSelected}
        </Button>
        <Button size="sm" variant="danger" disabled={pending} onClick={onDelete}>
          {T.deleteSelected}
        </Button>
        <Button size="sm" variant="ghost" onClick={onClearSelection}>
          {T.clearSelection}
        </Button>
      </div>
      {factsOpen && <BulkFacts facts={facts} onChange={setFacts} hooks={hooks} />}
      {factsProblem && (
        <p role="alert" className="w-full text-xs text-red-700">
          {TF.bulk.problems[factsProblem]}
        </p>
      )}
    </div>
  );
}
