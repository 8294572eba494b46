/** Time as a service, so expiry and schedules are testable without sleeping. */

/** Wall clock in epoch milliseconds. */
export interface Clock {
  now(): number;
}

/** The real clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** A clock that flows with real time but can be moved by tests (an offset over Date.now()). */
export class TestClock implements Clock {
  private offset = 0;
  /** Current time in ms. */
  now(): number {
    return Date.now() + this.offset;
  }
  /** Moves time forward (or back with a negative value). */
  advance(ms: number): void {
    this.offset += ms;
  }
  /** Makes now() equal `ms` at this moment; time keeps flowing from there. */
  set(ms: number): void {
    this.offset = ms - Date.now();
  }
  /** Back to real time. */
  reset(): void {
    this.offset = 0;
  }
}
