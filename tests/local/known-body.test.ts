import { describe, expect, it } from 'vitest';
import { BytesResponse, knownBody, responseWithBody } from '../../local/http/known-body.ts';

describe('answers built from bytes at hand (BytesResponse)', () => {
  it('reads as any Response: text, json, bytes, the body stream, and clones', async () => {
    const make = () => responseWithBody('{"a":"é"}', { status: 206, headers: { 'content-type': 'application/json', 'content-range': '0-0/*' } });
    expect(make()).toBeInstanceOf(Response);
    expect(await make().text()).toBe('{"a":"é"}');
    expect(await make().json()).toEqual({ a: 'é' });
    expect(new TextDecoder().decode(await make().arrayBuffer())).toBe('{"a":"é"}');
    const streamed = make();
    const chunks: Uint8Array[] = [];
    for await (const chunk of streamed.body as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
    expect(Buffer.concat(chunks).toString('utf8')).toBe('{"a":"é"}');
    const original = make();
    const copy = original.clone();
    expect(copy.status).toBe(206);
    expect(copy.headers.get('content-range')).toBe('0-0/*');
    expect(await copy.text()).toBe('{"a":"é"}');
    expect(await original.text()).toBe('{"a":"é"}');
  });

  it('offers its bytes until the body is read, then reads once like a Response', async () => {
    const response = new BytesResponse(Buffer.from('[1,2]'), { status: 200 });
    expect(Buffer.from(knownBody(response)!).toString()).toBe('[1,2]');
    expect(response.bodyUsed).toBe(false);
    expect(await response.text()).toBe('[1,2]');
    expect(response.bodyUsed).toBe(true);
    expect(knownBody(response)).toBeUndefined();
    await expect(response.text()).rejects.toThrow();
  });

  it('keeps status, status text and headers, which stay mutable, and types text as a Response does', () => {
    const response = responseWithBody('x', { status: 201, statusText: 'Created', headers: { location: '/a' } });
    response.headers.set('etag', 'W/"1"');
    expect([response.status, response.statusText, response.ok]).toEqual([201, 'Created', true]);
    expect([...response.headers]).toEqual([...new Response('x', { headers: { location: '/a', etag: 'W/"1"' } }).headers]);
    expect(responseWithBody(new Uint8Array([1]), {}).headers.has('content-type')).toBe(false);
  });

  it('is not known for a Response built otherwise, and null makes an answer without a body', () => {
    expect(knownBody(new Response('x'))).toBeUndefined();
    const empty = responseWithBody(null, { status: 204 });
    expect([empty.status, empty.body, knownBody(empty)]).toEqual([204, null, undefined]);
  });
});
