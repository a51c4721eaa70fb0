/** The one Retry button: what a failed load offers, in a screen's problem, a widget or a drawer section. */
export function RetryButton({ onRetry }: { readonly onRetry: () => void }) {
  return (
    <button type="button" className="button secondary" onClick={onRetry}>
      Retry
    </button>
  );
}
