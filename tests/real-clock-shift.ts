/**
 * Moves this test process's real time (`new Date()`, `Date.now()`, and with them embedded PGlite's `now()`, which
 * reads the same clock) by SG_REAL_CLOCK_SHIFT_DAYS whole days, while the tests' own clocks (`testClock`, the `now`
 * they inject) stay where they are. `npm run test:clock` runs the jobs, billing, alerts and triage suites so, years
 * ahead and years back: a test passes there only if the application takes every time it stores or compares from the
 * clock it is given, never from the machine or the database. Without the variable this does nothing.
 */
const days = Number(process.env.SG_REAL_CLOCK_SHIFT_DAYS ?? 0);

if (Number.isInteger(days) && days !== 0) {
  const RealDate = Date;
  const shift = days * 86_400_000;
  class ShiftedDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(RealDate.now() + shift);
      else super(...(args as [string | number | Date]));
    }
    static override now(): number {
      return RealDate.now() + shift;
    }
  }
  globalThis.Date = ShiftedDate as DateConstructor;
}
