import { Alert } from './Alert.tsx';

interface Props {
  readonly message: string;
  readonly onRetry: () => void;
}

/** A failed load: what went wrong and a way to try again. */
export function LoadError({ message, onRetry }: Props) {
  return (
    <Alert tone="error">
      <span>{message} </span>
      <button type="button" className="button secondary" onClick={onRetry}>
        Retry
      </button>
    </Alert>
  );
}
