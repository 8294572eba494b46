/**
 * Push HTTP on Deno (the server and Deno Deploy): fetch for OAuth and FCM, and an HTTP/2-only
 * client for APNs (`http1: false`, so ALPN can only settle on h2, as APNs requires). Loaded by a
 * computed import so Workers bundles never see Deno.createHttpClient.
 */
import { providerCall, type PushHttp } from "./provider_http.ts";

/** Builds the Deno push clients; `caCerts` adds trusted roots (the local fakes' CA in tests). */
export function createDenoPushHttp(options: { caCerts?: string[] } = {}): PushHttp {
  const plain = (input: RequestInfo | URL, init?: RequestInit) => fetch(input, init);
  // Deno Deploy may not offer createHttpClient; its fetch negotiates h2 through ALPN by itself.
  if (typeof Deno.createHttpClient !== "function") {
    return { fetch: providerCall(plain), http2: providerCall(plain) };
  }
  const h2 = Deno.createHttpClient({ http1: false, http2: true, caCerts: options.caCerts });
  const tls = options.caCerts ? Deno.createHttpClient({ caCerts: options.caCerts }) : undefined;
  return {
    fetch: providerCall(plain, tls ? { client: tls } as RequestInit : {}),
    http2: providerCall(plain, { client: h2 } as RequestInit),
  };
}
