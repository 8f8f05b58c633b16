import { Button } from '../../../components/ui/button.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { ADMIN_TEXTS } from '../../../lib/admin-texts.ts';
import type { UploadCatalogItem, UploadServices } from '../api/upload-services.ts';
import type { UploadDefaults as Defaults } from '../hooks/use-upload-queue.ts';
import { InlineAdd } from './inline-add.tsx';

const T = ADMIN_TEXTS.adminUpload;

interface UploadDefaultsProps {
  services: UploadServices;
  defaults: Defaults;
  onChange: (defaults: Defaults) => void;
  onApplyToAll: () => void;
  applyDisabled: boolean;
  brands: UploadCatalogItem[];
  categories: UploadCatalogItem[];
  tags: UploadCatalogItem[];
}

/** The brand, category and tags new files get, with inline add of each and 'Apply to all items'. */
export function UploadDefaults({ services, defaults, onChange, onApplyToAll, applyDisabled, brands, categories, tags }: UploadDefaultsProps) {
  const toggleTag = (id: string) =>
    onChange({ ...defaults, tagIds: defaults.tagIds.includes(id) ? defaults.tagIds.filter((tag) => tag !== id) : [...defaults.tagIds, id] });

  return (
    <div className="space-y-4">
      <h3 className="text-sm font-semibold text-neutral-900">{T.defaultsTitle}</h3>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-2">
          <Select
            aria-label={T.brand}
            value={defaults.brandId}
            onChange={(event) => onChange({ ...defaults, brandId: event.target.value })}
            className="w-full [&_select]:w-full [&_select]:max-w-none"
          >
            <option value="">{T.selectBrand}</option>
            {brands.map((brand) => (
              <option key={brand.id} value={brand.id}>
                {brand.name}
              </option>
            ))}
          </Select>
          <InlineAdd services={services} kind="brands" placeholder={T.newBrand} label={T.addBrandLabel} onAdded={(brand) => onChange({ ...defaults, brandId: brand.id })} />
        </div>
        <div className="space-y-2">
          <Select
            aria-label={T.category}
            value={defaults.categoryId}
            onChange={(event) => onChange({ ...defaults, categoryId: event.target.value })}
            className="w-full [&_select]:w-full [&_select]:max-w-none"
          >
            <option value="">{T.selectCategory}</option>
            {categories.map((category) => (
              <option key={category.id} value={category.id}>
                {category.name}
              </option>
            ))}
          </Select>
          <InlineAdd
            services={services}
            kind="categories"
            placeholder={T.newCategory}
            label={T.addCategoryLabel}
            onAdded={(category) => onChange({ ...defaults, categoryId: category.id })}
          />
        </div>
      </div>
      <fieldset className="space-y-2">
        <legend className="mb-2 text-xs font-medium tracking-wide text-neutral-500 uppercase">{T.tags}</legend>
        <div className="flex max-h-36 flex-wrap gap-1.5 overflow-y-auto">
          {tags.length === 0 && <p className="text-sm text-neutral-500">{T.noTags}</p>}
          {tags.map((tag) => {
            const on = defaults.tagIds.includes(tag.id);
            return (
              <button
                key={tag.id}
                type="button"
                aria-pressed={on}
                onClick={() => toggleTag(tag.id)}
                className={`h-8 rounded-full border px-3 text-[13px] font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-neutral-950 ${
                  on ? 'border-neutral-950 bg-neutral-950 text-white' : 'border-neutral-200 bg-white text-neutral-700 hover:border-neutral-300'
                }`}
              >
                {tag.name}
              </button>
            );
          })}
        </div>
        <InlineAdd
          services={services}
          kind="tags"
          placeholder={T.newTag}
          label={T.addTagLabel}
          onAdded={(tag) => onChange({ ...defaults, tagIds: [...defaults.tagIds, tag.id] })}
        />
      </fieldset>
      <Button variant="outline" onClick={onApplyToAll} disabled={applyDisabled} className="w-full sm:w-auto">
        {T.applyToAll}
      </Button>
    </div>
  );
}
