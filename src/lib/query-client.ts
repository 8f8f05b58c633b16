import { QueryClient } from '@tanstack/react-query';

/** The SPA's query cache: data stays fresh for a minute, and focus does not refetch. */
export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { staleTime: 60_000, refetchOnWindowFocus: false } } });
}
