import { useState, type FormEvent } from 'react';
import { toast } from '../../../lib/toast.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ADMIN_TEXTS } from '../../../lib/admin-texts.ts';
import { useTagAdsOfDay, yesterdayUtc } from '../api/tag-ads-of-day.ts';
import { errorTextOf } from '../../../lib/api-error.ts';
import { formatDay } from '../../../lib/formatting.ts';

const T = ADMIN_TEXTS.adminUtilities;

/** 'Tag Ads': gives a day's uploads (default yesterday, UTC) the Black Friday tag where they lack it. */
export function AdminUtilitiesCard() {
  const [day, setDay] = useState(() => yesterdayUtc());
  const tag = useTagAdsOfDay();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!day || tag.isPending) return;
    tag.mutate(day, {
      onSuccess: (result) => toast.success(T.toasts.success, { description: T.toasts.tagged(result.tagged, formatDay(day)) }),
      onError: (error) => toast.error(T.toasts.failed, { description: errorTextOf(error) }),
    });
  };

  return (
    <section aria-labelledby="admin-utilities-heading" className="rounded-2xl border border-neutral-200/80 bg-white p-4 shadow-[0_1px_2px_rgba(0,0,0,0.04)] sm:p-6">
      <h2 id="admin-utilities-heading" className="text-base font-semibold tracking-tight text-neutral-950">
        {T.title}
      </h2>
      <p className="mt-0.5 text-sm text-neutral-500">{T.tagAdsDescription}</p>
      <form onSubmit={submit} className="mt-4 flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1 text-sm font-medium text-neutral-700">
          {T.day}
          <input
            type="date"
            required
            value={day}
            max={new Date().toISOString().slice(0, 10)}
            onChange={(event) => setDay(event.target.value)}
            className="h-10 rounded-xl border border-neutral-200 bg-white px-3 text-sm text-neutral-900 focus-visible:border-neutral-950 focus-visible:outline-none"
          />
        </label>
        <Button type="submit" disabled={!day || tag.isPending}>
          {tag.isPending ? T.tagging : T.tagAds}
        </Button>
      </form>
    </section>
  );
}
