/**
 * Answers the stack builds from bytes it already holds (an API's JSON). Node's Response makes a web stream for
 * its body as it is built, and reading it back costs a promise per chunk: on a trivial read that was a quarter of
 * the stack's CPU. A BytesResponse keeps the bytes instead and makes its stream only when someone reads the body
 * as a Response's (body, text(), json(), ...); the stack's own layers (entity tags, the Node adapter) take the
 * bytes through knownBody and never make it.
 */
export class BytesResponse extends Response {
  readonly #bytes: Uint8Array<ArrayBuffer>;
  #streamed: Response | null = null;

  constructor(body: string | Uint8Array<ArrayBuffer>, init: ResponseInit = {}) {
    super(null, init);
    this.#bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    // What a Response built from a string says of its type when the caller did not.
    if (typeof body === 'string' && !this.headers.has('content-type')) this.headers.set('content-type', 'text/plain;charset=UTF-8');
  }

  /** The same answer as a plain Response, made once, the first time the body is read as a stream or a value. */
  #asRead(): Response {
    this.#streamed ??= new Response(this.#bytes, { status: this.status, statusText: this.statusText, headers: this.headers });
    return this.#streamed;
  }

  /** The bytes, while nobody has read the body as a Response's. */
  get knownBytes(): Uint8Array<ArrayBuffer> | undefined {
    return this.#streamed ? undefined : this.#bytes;
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> {
    return this.#asRead().body!;
  }

  override get bodyUsed(): boolean {
    return this.#streamed?.bodyUsed ?? false;
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.#asRead().arrayBuffer();
  }

  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#asRead().bytes();
  }

  override blob(): Promise<Blob> {
    return this.#asRead().blob();
  }

  override formData(): Promise<FormData> {
    return this.#asRead().formData();
  }

  override json(): Promise<unknown> {
    return this.#asRead().json();
  }

  override text(): Promise<string> {
    return this.#asRead().text();
  }

  override clone(): Response {
    if (this.#streamed) return this.#streamed.clone();
    return new BytesResponse(this.#bytes, { status: this.status, statusText: this.statusText, headers: new Headers(this.headers) });
  }
}

/** The answer for a body that may be absent: a BytesResponse, or a Response without a body for null. */
export function responseWithBody(body: string | Uint8Array<ArrayBuffer> | null, init: ResponseInit): Response {
  return body === null ? new Response(null, init) : new BytesResponse(body, init);
}

/** The bytes of a BytesResponse whose body nobody has read as a Response's. */
export function knownBody(response: Response): Uint8Array<ArrayBuffer> | undefined {
  return response instanceof BytesResponse ? response.knownBytes : undefined;
}
