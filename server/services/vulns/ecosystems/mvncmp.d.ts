/** `mvncmp` (a port of Maven's ComparableVersion) ships no types: its CommonJS export is `{ compare }`. */
declare module 'mvncmp' {
  const mvncmp: {
    /** Negative, 0 or positive as `a` sorts before, with or after `b` under Maven's ComparableVersion rules. */
    compare(a: string, b: string): number;
  };
  export default mvncmp;
}
