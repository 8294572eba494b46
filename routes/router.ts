/**
 * The app's router: one small router per first path segment (`/items`, `/otp`, `/admin`, ...).
 *
 * Hono's fast RegExpRouter cannot hold some of the spec's paths side by side (a static segment
 * and a parameter at the same depth with more segments after them, as in
 * `/service/v1/nft/contract/:contract/lock`), so one router for the whole app falls back to the
 * TrieRouter for every request (about 1 µs a match, against 0.15 µs). Split by first segment,
 * each part picks its own: the fast router where its paths allow it, the trie where they do not.
 * Routes for every path (`*`, `/*`: the app's middleware) go to every part, in registration order.
 * A part that ends up on the trie remembers its matches by method and path (the last
 * MATCH_MEMO_SIZE distinct ones, forgotten together when full), so a polled path such as
 * `/service/v1/tx` is looked up in a map instead of walked through the trie on every request.
 */
import type { Result, Router } from "hono/router";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";

type Route<T> = [method: string, path: string, handler: T];

function firstSegment(path: string): string {
  const end = path.indexOf("/", 1);
  return end === -1 ? path.slice(1) : path.slice(1, end);
}

function isEveryPath(path: string): boolean {
  return path === "*" || path === "/*";
}

/** Distinct matches a trie part remembers (forgotten all together when it is full). */
export const MATCH_MEMO_SIZE = 2_048;

/** One part: its router and, once it is known to be the trie, its remembered matches. */
class Part<T> {
  readonly router = new SmartRouter<T>({
    routers: [new RegExpRouter<T>(), new TrieRouter<T>()],
  });
  /** Whether the router has chosen (it does at its first match). */
  #chosen = false;
  #memo?: Map<string, Result<T>>;

  add(method: string, path: string, handler: T): void {
    this.router.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    const memo = this.#memo;
    if (memo) {
      const key = `${method} ${path}`;
      let result = memo.get(key);
      if (!result) {
        result = this.router.match(method, path);
        if (memo.size >= MATCH_MEMO_SIZE) memo.clear();
        memo.set(key, result);
      }
      return result;
    }
    const result = this.router.match(method, path);
    if (!this.#chosen) {
      this.#chosen = true;
      if (this.router.activeRouter instanceof TrieRouter) {
        this.#memo = new Map([[`${method} ${path}`, result]]);
      }
    }
    return result;
  }
}

/** A router made of one router per first path segment. */
export class SegmentRouter<T> implements Router<T> {
  name = "SegmentRouter";
  readonly #parts = new Map<string, Part<T>>();
  /** Routes for every path, replayed into a part created after them. */
  readonly #everyPath: Route<T>[] = [];
  /** The part for paths whose first segment has no routes of its own. */
  readonly #rest = new Part<T>();

  /** Adds a route to its segment's part (or to every part). */
  add(method: string, path: string, handler: T): void {
    if (isEveryPath(path)) {
      this.#everyPath.push([method, path, handler]);
      this.#rest.add(method, path, handler);
      for (const part of this.#parts.values()) part.add(method, path, handler);
      return;
    }
    const segment = firstSegment(path);
    if (segment.startsWith(":") || segment.includes("*")) {
      throw new Error(`${path}: a first path segment must be a fixed name`);
    }
    let part = this.#parts.get(segment);
    if (!part) {
      part = new Part<T>();
      for (const [m, p, h] of this.#everyPath) part.add(m, p, h);
      this.#parts.set(segment, part);
    }
    part.add(method, path, handler);
  }

  /** Matches in the part of the path's first segment. */
  match(method: string, path: string): Result<T> {
    return (this.#parts.get(firstSegment(path)) ?? this.#rest).match(method, path);
  }
}
