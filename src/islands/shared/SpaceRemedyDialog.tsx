/**
 * The remedy dialog on the firewalls a screen gives, or on the space's for a screen that does not load them itself
 * (the event drawer, the alert page, the overview): those load with the dialog, and the dialog waits for them rather
 * than saying the space has none.
 */
import type { ComponentProps } from 'react';
import { $firewalls } from '../../stores/firewalls.ts';
import { Problem } from './Problem.tsx';
import { RemedyDialog } from './RemedyDialog.tsx';
import { useApi } from './use-api.ts';

type Props = Omit<ComponentProps<typeof RemedyDialog>, 'firewalls'>;

/** The dialog on the space's firewalls, the traffic's own chosen first when the space still has it. */
function OnSpaceFirewalls({ firewallId, ...props }: Props) {
  const { loaded, retry } = useApi($firewalls);
  if (loaded.state === 'error') return <Problem error={loaded.error} onRetry={retry} />;
  if (loaded.state === 'loading') return <p role="status">Opening the remedy…</p>;
  const firewalls = loaded.data.items.map((item) => ({ id: item.id, name: item.name }));
  const known = firewalls.some((item) => item.id === firewallId);
  return <RemedyDialog firewalls={firewalls} {...(known && firewallId ? { firewallId } : {})} {...props} />;
}

export function SpaceRemedyDialog({
  firewalls,
  ...props
}: Props & { readonly firewalls?: ComponentProps<typeof RemedyDialog>['firewalls'] | undefined }) {
  return firewalls ? <RemedyDialog firewalls={firewalls} {...props} /> : <OnSpaceFirewalls {...props} />;
}
