import type { ReactNode } from 'react';

interface Props {
  readonly tone: 'error' | 'success' | 'info';
  readonly children: ReactNode;
}

/** A message region: errors are announced at once (role=alert), the rest politely (role=status). */
export function Alert({ tone, children }: Props) {
  return (
    <div className={`alert alert--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}
