-- Cursor signatures without pgcrypto: HMAC-SHA-256 (RFC 2104) built on the
-- core sha256() function (PostgreSQL 11+). pgcrypto's hmac() goes through
-- OpenSSL's cipher setup, which in the embedded engine (PGlite) now and then
-- fails with 'Cannot use "sha256": Cipher cannot be initialized'; the core
-- function has no such state. The bytes are the same as pgcrypto's hmac(),
-- so cursors signed before this migration stay valid.

-- HMAC-SHA-256 of p_data under p_key: sha256((K xor opad) || sha256((K xor ipad) || data)),
-- K being the key padded with zeros to the 64-byte block (hashed first when longer).
create or replace function private.hmac_sha256(p_data bytea, p_key bytea) returns bytea
language plpgsql immutable strict parallel safe
set search_path = ''
as $$
declare
  v_key bytea := case when length(p_key) > 64 then sha256(p_key) else p_key end;
  v_hex text;
  v_inner text;
  v_outer text;
begin
  v_hex := encode(v_key, 'hex') || repeat('00', 64 - length(v_key));
  -- XOR eight bytes at a time: each 16-digit hex chunk as a 64-bit integer.
  select string_agg(lpad(to_hex(('x' || substr(v_hex, 1 + 16 * j, 16))::bit(64)::bigint # 3906369333256140342), 16, '0'), '' order by j),
         string_agg(lpad(to_hex(('x' || substr(v_hex, 1 + 16 * j, 16))::bit(64)::bigint # 6655295901103053916), 16, '0'), '' order by j)
    into v_inner, v_outer
    from generate_series(0, 7) as j;
  -- 3906369333256140342 = 0x3636363636363636 (ipad), 6655295901103053916 = 0x5c5c5c5c5c5c5c5c (opad).
  return sha256(decode(v_outer, 'hex') || sha256(decode(v_inner, 'hex') || p_data));
end;
$$;
revoke execute on function private.hmac_sha256(bytea, bytea) from public;

create or replace function private.sign_cursor(p_payload jsonb) returns text
language sql stable
security definer
set search_path = ''
as $$
  select private.base64url_encode(convert_to(p_payload::text, 'UTF8')) || '.' ||
         private.base64url_encode(substring(private.hmac_sha256(convert_to(p_payload::text, 'UTF8'),
           convert_to((select value from private.settings where key = 'cursor_secret'), 'UTF8')) from 1 for 18))
$$;
