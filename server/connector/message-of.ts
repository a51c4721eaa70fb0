/** One readable line for an error, with fetch's cause (`fetch failed (connect ECONNREFUSED …)`), for the logs. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}
