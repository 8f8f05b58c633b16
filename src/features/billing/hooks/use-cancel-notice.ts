import { useCallback, useEffect, useState } from 'react';
import * as z from 'zod/mini';
import { useSession } from '../../../lib/auth-session.tsx';
import { periodEndIso, useSubscriptionStatus, type SubscriptionStatus } from '../api/check-subscription.ts';
import { useEntitlement } from './use-entitlement.tsx';

/** Session storage key of the cancellation notice (spec section 3). */
export const CANCEL_NOTICE_STORAGE_KEY = 'cancel_notice';

export const cancelNoticeSchema = z.object({
  scheduled: z.boolean(),
  endDate: z.nullable(z.string()),
  immediate: z.boolean(),
});

export type CancelNotice = z.infer<typeof cancelNoticeSchema>;

function readNotice(): CancelNotice | null {
  try {
    const raw = window.sessionStorage.getItem(CANCEL_NOTICE_STORAGE_KEY);
    if (raw === null) return null;
    const parsed = cancelNoticeSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function writeNotice(notice: CancelNotice | null): void {
  try {
    if (notice) window.sessionStorage.setItem(CANCEL_NOTICE_STORAGE_KEY, JSON.stringify(notice));
    else window.sessionStorage.removeItem(CANCEL_NOTICE_STORAGE_KEY);
  } catch {
    // Storage blocked: the notice lives in memory only.
  }
}

/**
 * What a fresh check says about the notice: set to cancel keeps (or makes) a
 * scheduled notice; not cancelling clears it. A notice of an immediate
 * cancellation stays until a subscription exists again, since after it the
 * check no longer reports any cancelling.
 */
export function noticeAfterCheck(current: CancelNotice | null, status: SubscriptionStatus): CancelNotice | null {
  if (status.subscribed && status.cancel_at_period_end) {
    return { scheduled: true, endDate: status.subscription_end ?? periodEndIso(status.current_period_end ?? status.period_end), immediate: false };
  }
  if (current?.immediate && !status.subscribed) return current;
  return null;
}

/**
 * The cancellation notice, kept under cancel_notice in session storage and
 * checked again when the window gets focus, when the tab becomes visible and
 * after the entitlement loads.
 */
export function useCancelNotice(): { notice: CancelNotice | null; remember: (notice: CancelNotice) => void; status: ReturnType<typeof useSubscriptionStatus> } {
  const { user } = useSession();
  const { entitlementLoaded, hasValidAccess } = useEntitlement();
  const status = useSubscriptionStatus(user?.id ?? null);
  const [notice, setNotice] = useState<CancelNotice | null>(readNotice);

  const remember = useCallback((next: CancelNotice) => {
    writeNotice(next);
    setNotice(next);
  }, []);

  const { refetch, data, dataUpdatedAt } = status;
  const userId = user?.id ?? null;

  useEffect(() => {
    if (!data) return;
    const next = noticeAfterCheck(readNotice(), data);
    writeNotice(next);
    setNotice(next);
  }, [data, dataUpdatedAt]);

  useEffect(() => {
    if (userId === null) return;
    const check = () => void refetch();
    const onVisibility = () => {
      if (document.visibilityState === 'visible') check();
    };
    window.addEventListener('focus', check);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('focus', check);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [userId, refetch]);

  useEffect(() => {
    if (userId !== null && entitlementLoaded) void refetch();
  }, [userId, entitlementLoaded, hasValidAccess, refetch]);

  return { notice, remember, status };
}
