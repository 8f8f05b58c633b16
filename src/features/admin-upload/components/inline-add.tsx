import { useState, type FormEvent } from 'react';
import { toast } from '../../../lib/toast.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ADMIN_TEXTS } from '../../../lib/admin-texts.ts';
import type { UploadCatalogItem, UploadCatalogKind, UploadServices } from '../api/upload-services.ts';
import { useAddCatalogEntry } from '../hooks/use-upload-catalog.ts';
import { errorTextOf } from '../../../lib/api-error.ts';

const T = ADMIN_TEXTS.adminUpload;

interface InlineAddProps {
  services: UploadServices;
  kind: UploadCatalogKind;
  placeholder: string;
  label: string;
  onAdded: (entry: UploadCatalogItem) => void;
}

/** A name field with Add: enabled once the trimmed name is longer than one character (spec section 5). */
export function InlineAdd({ services, kind, placeholder, label, onAdded }: InlineAddProps) {
  const [name, setName] = useState('');
  const add = useAddCatalogEntry(services, kind);
  const trimmed = name.trim();
  const canAdd = trimmed.length > 1 && !add.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!canAdd) return;
    add.mutate(trimmed, {
      onSuccess: (entry) => {
        toast.success(T.toasts.added[kind]);
        setName('');
        onAdded(entry);
      },
      onError: (error) => toast.error(T.toasts.addFailed[kind], { description: errorTextOf(error) }),
    });
  };

  return (
    <form onSubmit={submit} className="flex min-w-0 gap-2" aria-label={label}>
      <input
        value={name}
        onChange={(event) => setName(event.target.value)}
        placeholder={placeholder}
        aria-label={placeholder}
        maxLength={80}
        className="h-9 min-w-0 flex-1 rounded-lg border border-neutral-200 bg-white px-3 text-sm text-neutral-900 placeholder:text-neutral-400 focus-visible:border-neutral-400 focus-visible:outline-none"
      />
      <Button type="submit" variant="outline" size="sm" className="h-9" disabled={!canAdd} aria-label={label}>
        {T.add}
      </Button>
    </form>
  );
}
