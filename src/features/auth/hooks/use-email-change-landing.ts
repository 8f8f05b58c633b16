import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { reloadAccount } from '../api/reload-account.ts';

/** On a page an email-change link lands on (?code=…): reload the account, then drop the code from the address. */
export function useEmailChangeLanding(enabled: boolean): void {
  const location = useLocation();
  const navigate = useNavigate();
  const code = new URLSearchParams(location.search).get('code');
  useEffect(() => {
    if (!enabled || !code) return;
    let cancelled = false;
    void reloadAccount().then(() => {
      if (cancelled) return;
      const query = new URLSearchParams(location.search);
      query.delete('code');
      const search = query.toString();
      navigate({ pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash }, { replace: true });
    });
    return () => {
      cancelled = true;
    };
  }, [enabled, code, location.pathname, location.search, location.hash, navigate]);
}
