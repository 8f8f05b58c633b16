import { describe, expect, it } from 'vitest';
import { checkUploadFacts, EMPTY_UPLOAD_FACTS, factsOfFile } from '../../../src/features/admin-upload/lib/upload-facts.ts';

const batch = { ...EMPTY_UPLOAD_FACTS, platforms: ['meta' as const], offer: 'discount' as const, first_seen: '2026-03-01', landing_url: 'https://lumora.example/spring' };

describe('the upload facts', () => {
  it('gives every file the batch facts, each replaced by the file’s own where it has one', () => {
    expect(factsOfFile(batch, {})).toEqual({ ...batch, headline: '', primary_text: '' });
    const own = factsOfFile(batch, { offer: 'bundle', headline: 'Two for one', platforms: ['tiktok'], still_running: true });
    expect(own).toMatchObject({ offer: 'bundle', headline: 'Two for one', platforms: ['tiktok'], still_running: true, first_seen: '2026-03-01' });
    // A field given back to the batch (undefined) takes the batch's value again.
    expect(factsOfFile(batch, { offer: undefined }).offer).toBe('discount');
  });

  it('checks the facts with the shared zod rules and inserts every fact, null where empty', () => {
    const checked = checkUploadFacts(factsOfFile(batch, { country: ' us ', language: 'EN', primary_text: '   ' }));
    expect(checked).toEqual({
      ok: true,
      facts: {
        platforms: ['meta'],
        placement: null,
        format: null,
        first_seen: '2026-03-01',
        last_seen: null,
        still_running: false,
        landing_url: 'https://lumora.example/spring',
        primary_text: null,
        headline: null,
        call_to_action: null,
        offer: 'discount',
        hook_id: null,
        language: 'en',
        country: 'US',
      },
    });
  });

  it('names the fields that break a rule', () => {
    expect(checkUploadFacts(factsOfFile(batch, { landing_url: 'ftp://files' }))).toEqual({ ok: false, fields: ['landing_url'] });
    expect(checkUploadFacts(factsOfFile(batch, { last_seen: '2026-02-01' }))).toEqual({ ok: false, fields: ['last_seen'] });
    expect(checkUploadFacts(factsOfFile({ ...batch, first_seen: '' }, { still_running: true }))).toEqual({ ok: false, fields: ['first_seen'] });
    expect(checkUploadFacts(factsOfFile(batch, { country: 'USA', first_seen: '2026-02-30' }))).toEqual({ ok: false, fields: ['first_seen', 'country'] });
    expect(checkUploadFacts(factsOfFile(batch, { headline: 'x'.repeat(301) }))).toEqual({ ok: false, fields: ['headline'] });
  });
});
