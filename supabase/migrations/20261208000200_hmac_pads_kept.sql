-- The signing keys' HMAC pads are kept with their secrets.
--
-- Every page signs its image links with the pads of 'image_link_secret' (private.image_link_key) and its next cursor
-- with those of 'cursor_secret' (private.sign_cursor), and a page after the first signs its cursor again to check it
-- (private.read_cursor). Each of those worked the pads out of the secret again: a plpgsql function of hex strings,
-- 64-bit chunks and XOR, which counted alone was most of what signing a cursor costs (docs/decisions/0047). Now a
-- setting's pads are written with it, by a trigger, and read with it, and the two functions are plpgsql. The
-- signatures are the same bytes. Counted by bench/sql-instructions.sh with bench/instructions/later-page-cursor.sql
-- (a cursor checked, the next one signed and the image link key read): 3,359,751 instructions a call before,
-- 749,403 after (docs/decisions/0048).

alter table private.settings add column hmac_pads bytea;
update private.settings set hmac_pads = private.hmac_pads(convert_to(value, 'UTF8'));
alter table private.settings alter column hmac_pads set not null;

create function private.settings_write_pads() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.hmac_pads := private.hmac_pads(convert_to(new.value, 'UTF8'));
  return new;
end;
$$;
revoke execute on function private.settings_write_pads() from public;

create trigger settings_write_pads before insert or update of value, hmac_pads on private.settings
  for each row execute function private.settings_write_pads();

-- plpgsql, which keeps its statement's plan for the session: an SQL function with settings is planned again at every
-- call (docs/decisions/0047).
create or replace function private.image_link_key() returns bytea
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  return (select s.hmac_pads from private.settings s where s.key = 'image_link_secret');
end;
$$;

-- The same cursor as before: the payload, '.', and the first 18 bytes of its HMAC-SHA-256, both base64url. Written
-- out in plpgsql, where each SQL helper (base64url_encode, hmac_sha256_with_pads) was a function with settings,
-- planned again at every call.
create or replace function private.sign_cursor(p_payload jsonb) returns text
language plpgsql stable
security definer
set search_path = ''
as $$
declare
  v_text bytea := convert_to(p_payload::text, 'UTF8');
  v_pads bytea := (select s.hmac_pads from private.settings s where s.key = 'cursor_secret');
begin
  return translate(encode(v_text, 'base64'), E'+/=\n', '-_') || '.'
    || translate(encode(substring(sha256(substring(v_pads from 65 for 64) || sha256(substring(v_pads from 1 for 64) || v_text))
                                  from 1 for 18), 'base64'), E'+/=\n', '-_');
end;
$$;
