import { type FormEvent, type ReactNode, useEffect, useState } from 'react';

interface Props {
  readonly onSubmit: (event: FormEvent<HTMLFormElement>) => void | Promise<void>;
  readonly pending: boolean;
  readonly children: ReactNode;
  readonly className?: string;
  readonly 'aria-label'?: string;
}

/**
 * A form that cannot be typed into or sent before its island has hydrated (a native submit would
 * put what was typed, passwords included, in the URL), and that keeps what was typed after an error.
 */
export function Form({ onSubmit, pending, children, className, 'aria-label': label }: Props) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return (
    <form
      method="post"
      onSubmit={(event) => void onSubmit(event)}
      noValidate
      aria-busy={pending}
      className={className}
      aria-label={label}
    >
      <fieldset className="plain-fieldset form-fieldset" disabled={!hydrated}>
        {children}
      </fieldset>
    </form>
  );
}
