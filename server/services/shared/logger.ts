/** One structured log line. */
export type LogEntry = { level: 'info' | 'warn' | 'error'; msg: string } & Record<string, unknown>;
/** Where log lines go: injected so tests and the demo can filter or silence them. */
export type Logger = (entry: LogEntry) => void;

/** Writes one JSON object per line to stdout (or stderr for errors). */
export const jsonLogger: Logger = (entry) => {
  const line = `${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`;
  if (entry.level === 'error') process.stderr.write(line);
  else process.stdout.write(line);
};

/** Drops every line; for tests. */
export const silentLogger: Logger = () => undefined;
