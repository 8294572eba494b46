/** A local HTTP endpoint standing in for a provider or a game's callback receiver in tests. */

/** One request the endpoint received. */
export interface Received {
  method: string;
  path: string;
  headers: Headers;
  body: string;
}

/** A running local endpoint. */
export interface LocalReceiver {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/** Starts a server on a free loopback port; `answer` decides each response. */
export function startReceiver(
  answer: (req: Received) => Response | Promise<Response> = () => new Response("ok"),
): LocalReceiver {
  const received: Received[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const r: Received = {
      method: req.method,
      path: new URL(req.url).pathname,
      headers: req.headers,
      body: await req.text(),
    };
    received.push(r);
    return await answer(r);
  });
  const { port } = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => server.shutdown(),
  };
}
