-- Image links signed without pgcrypto. pgcrypto's hmac() goes through
-- OpenSSL's cipher setup, which in the embedded engine (PGlite) now and then
-- fails with 'Cannot use "sha256": Cipher cannot be initialized' and turns a
-- whole list page into an error. The cursors moved to the core sha256()
-- function for the same reason (20261101002300); the image links follow.
--
-- A link is signed once per image of a page, so the key's two HMAC pads
-- (K xor ipad, K xor opad) are worked out once per call, by
-- private.image_link_key(), and each signature costs two sha256() calls.
-- The bytes are HMAC-SHA-256's, as before: links signed earlier stay valid.

-- The 128 bytes (K xor ipad) || (K xor opad), K being the key padded with
-- zeros to the 64-byte block (hashed first when longer).
create or replace function private.hmac_pads(p_key bytea) returns bytea
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
  -- 3906369333256140342 = 0x3636363636363636 (ipad), 6655295901103053916 = 0x5c5c5c5c5c5c5c5c (opad).
  select string_agg(lpad(to_hex(('x' || substr(v_hex, 1 + 16 * j, 16))::bit(64)::bigint # 3906369333256140342), 16, '0'), '' order by j),
         string_agg(lpad(to_hex(('x' || substr(v_hex, 1 + 16 * j, 16))::bit(64)::bigint # 6655295901103053916), 16, '0'), '' order by j)
    into v_inner, v_outer
    from generate_series(0, 7) as j;
  return decode(v_inner || v_outer, 'hex');
end;
$$;
revoke execute on function private.hmac_pads(bytea) from public;

-- HMAC-SHA-256 of p_data under the pads private.hmac_pads gave for a key.
create or replace function private.hmac_sha256_with_pads(p_data bytea, p_pads bytea) returns bytea
language sql immutable strict parallel safe
set search_path = ''
as $$
  select sha256(substring(p_pads from 65 for 64) || sha256(substring(p_pads from 1 for 64) || p_data))
$$;
revoke execute on function private.hmac_sha256_with_pads(bytea, bytea) from public;

-- The cursors' HMAC, now on the same two parts.
create or replace function private.hmac_sha256(p_data bytea, p_key bytea) returns bytea
language sql immutable strict parallel safe
set search_path = ''
as $$
  select private.hmac_sha256_with_pads(p_data, private.hmac_pads(p_key))
$$;

-- The image link secret as HMAC pads, ready for private.signed_object_url.
create or replace function private.image_link_key() returns bytea
language sql stable
security definer
set search_path = ''
as $$
  select private.hmac_pads(convert_to(s.value, 'UTF8')) from private.settings s where s.key = 'image_link_secret'
$$;
revoke execute on function private.image_link_key() from public;

-- A Storage signed URL (relative to /storage/v1/) for one object, valid from
-- p_iat to p_exp (epoch seconds), signed with the pads of
-- private.image_link_key(). Object names are checked by the tables to
-- [A-Za-z0-9/_.-], so they need no escaping in the URL or the JSON payload.
-- One plain SQL expression without settings, so the planner inlines it into
-- the lists' queries (a function call per link cost five times the signing
-- itself); the token is therefore written out twice, once to show and once to sign.
drop function private.signed_object_url(text, text, bigint, bigint, bytea);
create function private.signed_object_url(p_bucket text, p_name text, p_iat bigint, p_exp bigint, p_key_pads bytea)
returns text
language sql stable
as $$
  select 'object/sign/' || p_bucket || '/' || p_name || '?token=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.'
    || replace(replace(replace(replace(encode(convert_to('{"url":"' || p_bucket || '/' || p_name || '","iat":' || p_iat
         || ',"exp":' || p_exp || '}', 'UTF8'), 'base64'), E'\n', ''), '+', '-'), '/', '_'), '=', '')
    || '.'
    || rtrim(replace(replace(encode(sha256(substring(p_key_pads from 65 for 64) || sha256(substring(p_key_pads from 1 for 64)
         || convert_to('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.'
         || replace(replace(replace(replace(encode(convert_to('{"url":"' || p_bucket || '/' || p_name || '","iat":' || p_iat
              || ',"exp":' || p_exp || '}', 'UTF8'), 'base64'), E'\n', ''), '+', '-'), '/', '_'), '=', ''), 'UTF8'))),
         'base64'), '+', '-'), '/', '_'), '=')
$$;
revoke execute on function private.signed_object_url(text, text, bigint, bigint, bytea) from public;
