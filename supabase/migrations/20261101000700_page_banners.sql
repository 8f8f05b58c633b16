-- One banner image per themed page, in the public banners bucket.
create table public.page_banners (
  page text primary key,
  image_path text not null,
  updated_at timestamptz not null default now(),
  constraint page_banners_page_known check (page in ('library', 'black-friday', 'top-picks')),
  constraint page_banners_image_path_format check (image_path ~ '^[A-Za-z0-9][A-Za-z0-9/_.-]*$' and image_path !~ '\.\.')
);
create trigger page_banners_touch before update on public.page_banners
  for each row execute function private.touch_updated_at();

alter table public.page_banners enable row level security;
revoke all on table public.page_banners from anon, authenticated;
grant select on table public.page_banners to anon, authenticated;
grant insert (page, image_path), update (image_path), delete on table public.page_banners to authenticated;

create policy "page_banners: everyone reads" on public.page_banners for select to anon, authenticated using (true);
create policy "page_banners: admins insert" on public.page_banners for insert to authenticated with check ((select public.is_admin()));
create policy "page_banners: admins update" on public.page_banners for update to authenticated
  using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "page_banners: admins delete" on public.page_banners for delete to authenticated using ((select public.is_admin()));
