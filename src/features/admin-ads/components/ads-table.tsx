import { Fragment, useEffect, useRef, useState, type RefObject } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { formatDate } from '../../../lib/formatting.ts';
import { adImageUrl } from '../../../lib/image-urls.ts';
import { ADMIN_TEXTS } from '../../../lib/admin-texts.ts';
import type { AdminAd } from '../api/get-admin-ads.ts';
import type { CatalogOption } from '../api/get-catalog-options.ts';
import type { AdsChange } from '../api/update-ads.ts';
import { FactCells } from './fact-cells.tsx';
import { FactsEditor } from './facts-editor.tsx';

const T = ADMIN_TEXTS.adminAds;
const TF = ADMIN_TEXTS.adminFacts;
/** The actions stay in view while the wide table scrolls sideways. */
const STICKY_ACTIONS = 'sticky right-0 shadow-[-8px_0_8px_-8px_rgba(0,0,0,0.12)]';
/** Every column: select, preview, brand, category, type, tags, five facts, created, actions. */
const COLUMN_COUNT = 13;

const cellSelect =
  'h-8 w-full min-w-[8rem] rounded-lg border border-neutral-200 bg-white px-2 text-[13px] text-neutral-900 focus-visible:border-neutral-950 focus-visible:outline-none';

interface AdsTableProps {
  ads: AdminAd[];
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  onToggleAll: () => void;
  brands: CatalogOption[];
  categories: CatalogOption[];
  types: CatalogOption[];
  hooks: CatalogOption[];
  savingId: string | null;
  onSave: (change: AdsChange, done: () => void) => void;
  onDelete: (ad: AdminAd) => void;
  onViewImage: (ad: AdminAd) => void;
}

/**
 * The page of ads: select, preview, brand, category, type, tags, the main
 * facts, created and actions; a row is either viewed or edited, and its facts
 * open in an editor under it.
 */
export function AdsTable({ ads, selected, onToggle, onToggleAll, brands, categories, types, hooks, savingId, onSave, onDelete, onViewImage }: AdsTableProps) {
  const [editingId, setEditingId] = useState<string | null>(null);
  const [factsId, setFactsId] = useState<string | null>(null);
  const scrollerRef = useRef<HTMLDivElement>(null);
  const visibleWidth = useVisibleWidth(scrollerRef);
  const closeFacts = (id: string) => {
    setFactsId(null);
    // Focus goes back to the button that opened the editor.
    requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-facts-button="${id}"]`)?.focus());
  };
  const allSelected = ads.length > 0 && ads.every((ad) => selected.has(ad.id));
  const someSelected = !allSelected && ads.some((ad) => selected.has(ad.id));
  const th = 'px-3 py-2.5 text-left text-xs font-semibold tracking-wide text-neutral-500 uppercase whitespace-nowrap';

  return (
    <div ref={scrollerRef} className="overflow-x-auto rounded-xl border border-neutral-200">
      <table className="w-full min-w-[1180px] border-collapse text-sm">
        <thead className="bg-neutral-50">
          <tr className="border-b border-neutral-200">
            <th scope="col" className={`${th} w-10`}>
              <input
                type="checkbox"
                aria-label={T.selectAll}
                checked={allSelected}
                ref={(element) => {
                  if (element) element.indeterminate = someSelected;
                }}
                onChange={onToggleAll}
                className="h-4 w-4 accent-neutral-950"
              />
            </th>
            <th scope="col" className={th}>{T.columns.preview}</th>
            <th scope="col" className={th}>{T.columns.brand}</th>
            <th scope="col" className={th}>{T.columns.category}</th>
            <th scope="col" className={th}>{T.columns.type}</th>
            <th scope="col" className={th}>{T.columns.tags}</th>
            <th scope="col" className={th}>{TF.columns.platforms}</th>
            <th scope="col" className={th}>{TF.columns.format}</th>
            <th scope="col" className={th}>{TF.columns.offer}</th>
            <th scope="col" className={th}>{TF.columns.hook}</th>
            <th scope="col" className={th}>{TF.columns.running}</th>
            <th scope="col" className={th}>{T.columns.created}</th>
            <th scope="col" className={`${th} ${STICKY_ACTIONS} bg-neutral-50 text-right`}>{T.columns.actions}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-neutral-200/70">
          {ads.map((ad) => (
            <Fragment key={ad.id}>
            {editingId === ad.id ? (
              <EditRow
                ad={ad}
                selected={selected.has(ad.id)}
                onToggle={() => onToggle(ad.id)}
                brands={brands}
                categories={categories}
                types={types}
                saving={savingId === ad.id}
                onCancel={() => setEditingId(null)}
                onSave={(change) => onSave(change, () => setEditingId(null))}
                onViewImage={() => onViewImage(ad)}
              />
            ) : (
              <tr data-testid="admin-ad-row" data-ad-id={ad.id} className={selected.has(ad.id) ? 'bg-neutral-950/[0.03]' : 'hover:bg-neutral-50/70'}>
                <td className="px-3 py-2">
                  <input
                    type="checkbox"
                    aria-label={T.selectAd(ad.brand_name, formatDate(ad.created_at))}
                    checked={selected.has(ad.id)}
                    onChange={() => onToggle(ad.id)}
                    className="h-4 w-4 accent-neutral-950"
                  />
                </td>
                <PreviewCell ad={ad} onViewImage={() => onViewImage(ad)} />
                <td className="max-w-[12rem] truncate px-3 py-2 font-medium text-neutral-950" title={ad.brand_name}>{ad.brand_name}</td>
                <td className="max-w-[10rem] truncate px-3 py-2 text-neutral-700" title={ad.category_name}>{ad.category_name}</td>
                <td className="px-3 py-2 text-neutral-700">{ad.type_name ?? <span className="text-neutral-400">{T.noType}</span>}</td>
                <td className="px-3 py-2">
                  <TagChips names={ad.tag_names} />
                </td>
                <FactCells facts={ad.facts} />
                <td className="px-3 py-2 whitespace-nowrap text-neutral-600 tabular-nums">
                  <time dateTime={ad.created_at}>{formatDate(ad.created_at)}</time>
                </td>
                <td className={`px-3 py-2 ${STICKY_ACTIONS} bg-white`}>
                  <div className="flex justify-end gap-1">
                    <Button variant="ghost" size="sm" aria-label={T.editLabel(ad.brand_name)} onClick={() => setEditingId(ad.id)}>
                      {T.edit}
                    </Button>
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={TF.factsLabel(ad.brand_name)}
                      aria-expanded={factsId === ad.id}
                      data-facts-button={ad.id}
                      disabled={!ad.facts}
                      onClick={() => setFactsId(factsId === ad.id ? null : ad.id)}
                    >
                      {TF.facts}
                    </Button>
                    <Button variant="ghost" size="sm" className="text-red-700 hover:bg-red-50 hover:text-red-800" aria-label={T.deleteLabel(ad.brand_name)} onClick={() => onDelete(ad)}>
                      {T.delete}
                    </Button>
                  </div>
                </td>
              </tr>
            )}
            {factsId === ad.id && ad.facts && (
              <tr data-testid="admin-ad-facts-row">
                <td colSpan={COLUMN_COUNT} className="p-0">
                  {/* The editor stays within the visible part of a table wider than its box. */}
                  <div className="sticky left-0" style={visibleWidth ? { width: visibleWidth } : undefined}>
                  <FactsEditor
                    adId={ad.id}
                    brand={ad.brand_name}
                    facts={ad.facts}
                    hooks={hooks}
                    saving={savingId === ad.id}
                    onCancel={() => closeFacts(ad.id)}
                    onSave={(change) => onSave(change, () => closeFacts(ad.id))}
                  />
                  </div>
                </td>
              </tr>
            )}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The width of the table's box, which scrolls sideways when the table is wider. */
function useVisibleWidth(ref: RefObject<HTMLElement | null>): number | null {
  const [width, setWidth] = useState<number | null>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

function PreviewCell({ ad, onViewImage }: { ad: AdminAd; onViewImage: () => void }) {
  return (
    <td className="px-3 py-2">
      <button
        type="button"
        onClick={onViewImage}
        aria-label={T.viewFullImage}
        title={T.viewFullImage}
        className="block overflow-hidden rounded-md bg-neutral-100 ring-1 ring-neutral-950/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-neutral-950"
      >
        <img src={adImageUrl(ad.display_480_url)} alt="" width={40} height={Math.round((40 * ad.height) / ad.width)} loading="lazy" decoding="async" className="h-12 w-10 object-cover" />
      </button>
      {ad.free_sample && (
        <span title={T.freeSampleHint} className="mt-1 block w-max rounded-full bg-emerald-50 px-1.5 py-0.5 text-[10px] font-medium text-emerald-800 ring-1 ring-emerald-600/20">
          {T.freeSample}
        </span>
      )}
    </td>
  );
}

function TagChips({ names }: { names: string[] }) {
  if (names.length === 0) return <span className="text-neutral-400">{T.noType}</span>;
  return (
    <ul className="flex max-w-[16rem] flex-wrap gap-1">
      {names.map((name) => (
        <li key={name} className="rounded-full bg-neutral-100 px-2 py-0.5 text-[11px] font-medium whitespace-nowrap text-neutral-700">
          {name}
        </li>
      ))}
    </ul>
  );
}

interface EditRowProps {
  ad: AdminAd;
  selected: boolean;
  onToggle: () => void;
  brands: CatalogOption[];
  categories: CatalogOption[];
  types: CatalogOption[];
  saving: boolean;
  onCancel: () => void;
  onSave: (change: AdsChange) => void;
  onViewImage: () => void;
}

/** The inline editor of one ad: brand, category and type; Save sends only what changed. */
function EditRow({ ad, selected, onToggle, brands, categories, types, saving, onCancel, onSave, onViewImage }: EditRowProps) {
  const [brandId, setBrandId] = useState(ad.brand_id);
  const [categoryId, setCategoryId] = useState(ad.category_id);
  const [typeId, setTypeId] = useState(ad.type_id ?? '');
  const changed = brandId !== ad.brand_id || categoryId !== ad.category_id || typeId !== (ad.type_id ?? '');

  const save = () =>
    onSave({
      ids: [ad.id],
      brandId: brandId !== ad.brand_id ? brandId : null,
      categoryId: categoryId !== ad.category_id ? categoryId : null,
      type: typeId === (ad.type_id ?? '') ? { mode: 'no_change' } : typeId === '' ? { mode: 'clear' } : { mode: 'set', typeId },
      addTagIds: [],
      removeTagIds: [],
    });

  return (
    <tr data-testid="admin-ad-row" data-ad-id={ad.id} data-editing="true" className="bg-amber-50/50">
      <td className="px-3 py-2">
        <input type="checkbox" aria-label={T.selectAd(ad.brand_name, formatDate(ad.created_at))} checked={selected} onChange={onToggle} className="h-4 w-4 accent-neutral-950" />
      </td>
      <PreviewCell ad={ad} onViewImage={onViewImage} />
      <td className="px-3 py-2">
        <select aria-label={T.brandOf} className={cellSelect} value={brandId} onChange={(event) => setBrandId(event.target.value)}>
          {brands.map((option) => (
            <option key={option.id} value={option.id}>
              {option.name}
            </option>
          ))}
        </select>
      </td>
      <td className="px-3 py-2">
        <select aria-label={T.categoryOf} className={cellSelect} value={categoryId} onChange={(event) => setCategoryId(event.target.value)}>
          {categories.map((option) => (
            <option key={option.id} value={option.id}>
              {option.name}
            </option>
          ))}
        </select>
      </td>
      <td className="px-3 py-2">
        <select aria-label={T.typeOf} className={cellSelect} value={typeId} onChange={(event) => setTypeId(event.target.value)}>
          <option value="">{T.none}</option>
          {types.map((option) => (
            <option key={option.id} value={option.id}>
              {option.name}
            </option>
          ))}
        </select>
      </td>
      <td className="px-3 py-2">
        <TagChips names={ad.tag_names} />
      </td>
      <FactCells facts={ad.facts} />
      <td className="px-3 py-2 whitespace-nowrap text-neutral-600 tabular-nums">
        <time dateTime={ad.created_at}>{formatDate(ad.created_at)}</time>
      </td>
      <td className={`px-3 py-2 ${STICKY_ACTIONS} bg-amber-50`}>
        <div className="flex justify-end gap-1">
          <Button size="sm" disabled={!changed || saving} onClick={save}>
            {T.save}
          </Button>
          <Button variant="ghost" size="sm" onClick={onCancel}>
            {T.cancel}
          </Button>
        </div>
      </td>
    </tr>
  );
}
