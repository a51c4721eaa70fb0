import type { ReactNode } from 'react';
import { RemedyButtons } from '../shared/RemedyButtons.tsx';
import { type Exclusion, remediesOf, type Traffic } from './alert-remedies.ts';

interface Props {
  readonly spaceId: string;
  readonly group: Readonly<Record<string, string>>;
  /** The alert's kept events or requests. */
  readonly traffic: readonly Traffic[];
  readonly canApply: boolean;
  /** The firewalls to choose from; left out, the space's. */
  readonly firewalls?: readonly { readonly id: string; readonly name: string }[];
  /** The firewall the alert's traffic went through, chosen first. */
  readonly firewallId?: string | null;
  /** What the page says about its remedies first. */
  readonly intro?: ReactNode;
  /** What shows when the traffic suggests nothing; left out, the section does not show then. */
  readonly none?: ReactNode;
  readonly onClose?: () => void;
}

const excludeLabel = (e: Exclusion) => `Exclude rule ${e.ruleId} on ${e.path}`;

/**
 * An alert page's one-click remedies: block the alert's address, exclude a rule that fired on a path; each shows how
 * many requests it would have affected and the configuration diff before an admin applies it.
 */
export function AlertRemedies(props: Props) {
  const { spaceId, group, traffic, canApply, firewalls, firewallId, intro, none, onClose } = props;
  const { ip, exclusions } = remediesOf(group, traffic);
  if (!ip && exclusions.length === 0 && none === undefined) return null;
  return (
    <section className="card panel" aria-labelledby="sg-al-remedies">
      <h3 id="sg-al-remedies">Remedies</h3>
      {intro}
      <div className="sg-al-remedies">
        <RemedyButtons
          spaceId={spaceId}
          choices={[
            ...(ip ? [{ label: `Block ${ip}`, draft: { kind: 'block-ip', ip } as const }] : []),
            ...exclusions.map((e) => ({ label: excludeLabel(e), draft: { kind: 'exclude-rule', ...e } as const })),
          ]}
          {...(firewalls ? { firewalls } : {})}
          firewallId={firewallId}
          canApply={canApply}
          className="button"
          {...(onClose ? { onClose } : {})}
        />
        {!ip && exclusions.length === 0 && none}
      </div>
    </section>
  );
}
