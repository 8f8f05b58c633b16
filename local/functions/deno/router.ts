// Runs under Deno (started by local/functions/functions-api.ts): serves every function of
// supabase/functions from one process, routing on the first path segment to
// supabase/functions/<name>/handler.ts's exported `handler`.
const [portArgument, functionsRoot] = Deno.args;
const port = Number(portArgument);
if (!Number.isInteger(port) || !functionsRoot) {
  console.error('Usage: deno run router.ts <port> <functions folder>');
  Deno.exit(2);
}

// The stack keeps our stdin open; when it goes away, even by kill -9, stdin ends and so do we.
(async () => {
  for await (const _chunk of Deno.stdin.readable) {
    // Nothing is sent; only the end matters.
  }
  Deno.exit(0);
})();

type Handler = (request: Request) => Response | Promise<Response>;
const handlers = new Map<string, Handler>();

const failure = (status: number, code: string, message: string) => Response.json({ error: { code, message } }, { status });

async function handlerFor(name: string): Promise<Handler | null> {
  const known = handlers.get(name);
  if (known) return known;
  const file = `${functionsRoot}/${name}/handler.ts`;
  try {
    await Deno.stat(file);
  } catch {
    return null;
  }
  const module = await import(`file://${file}`);
  if (typeof module.handler !== 'function') throw new Error(`${name}/handler.ts does not export a handler`);
  handlers.set(name, module.handler);
  return module.handler;
}

Deno.serve(
  { hostname: '127.0.0.1', port, onListen: () => console.log('functions ready') },
  async (request) => {
    const name = new URL(request.url).pathname.split('/')[1] ?? '';
    if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) return failure(404, 'not_found', 'Function not found');
    try {
      const handler = await handlerFor(name);
      if (!handler) return failure(404, 'not_found', `Function ${name} not found`);
      return await handler(request);
    } catch (error) {
      console.error(`Function ${name} failed:`, error);
      return failure(500, 'internal', `Function ${name} failed`);
    }
  },
);
