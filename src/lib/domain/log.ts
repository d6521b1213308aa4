/**
 * Logging port. Fields are counts, ids, codes and timings, never memory or message content:
 * user data is not logged (house rule).
 */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface Logger {
  info(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

export function consoleLogger(scope: string): Logger {
  const line = (event: string, fields?: LogFields) => (fields ? [`[${scope}] ${event}`, fields] : [`[${scope}] ${event}`]);
  return {
    info: (e, f) => console.info(...line(e, f)),
    warn: (e, f) => console.warn(...line(e, f)),
    error: (e, f) => console.error(...line(e, f)),
  };
}

/** A logger that keeps what it was told, for tests (e.g. that no user text was logged). */
export function memoryLogger(): Logger & { lines: { level: string; event: string; fields?: LogFields }[] } {
  const lines: { level: string; event: string; fields?: LogFields }[] = [];
  return {
    lines,
    info: (event, fields) => lines.push({ level: 'info', event, fields }),
    warn: (event, fields) => lines.push({ level: 'warn', event, fields }),
    error: (event, fields) => lines.push({ level: 'error', event, fields }),
  };
}
