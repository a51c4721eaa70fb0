import type { FirewallSettings } from '../../../contract/firewall-settings.ts';
import type { FieldErrors } from '../shared/field-errors.ts';
import { IpListEditor } from './IpListEditor.tsx';

interface Props {
  readonly settings: FirewallSettings;
  readonly errors: FieldErrors;
  readonly editable: boolean;
}

/** The allow list (never inspected further) and the deny list (always refused). */
export function IpListsTab({ settings, errors, editable }: Props) {
  return (
    <>
      <IpListEditor
        listKey="ipAllow"
        title="Allow list"
        description="Requests from these addresses skip the rules."
        entries={settings.ipAllow}
        errors={errors}
        editable={editable}
      />
      <IpListEditor
        listKey="ipDeny"
        title="Deny list"
        description="Requests from these addresses are refused with 403."
        entries={settings.ipDeny}
        errors={errors}
        editable={editable}
      />
    </>
  );
}
