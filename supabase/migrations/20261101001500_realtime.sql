-- Boards change live across tabs and devices: clients subscribe to
-- user_collections through Realtime, which delivers only the rows RLS lets
-- each subscriber select.
alter publication supabase_realtime add table public.user_collections;
