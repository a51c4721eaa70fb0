import { useCallback, useState } from 'react';
import { atLeast } from '../../../contract/constants/roles.ts';
import type { Me } from '../../../contract/me.ts';
import type { Member } from '../../../contract/members.ts';
import type { Space } from '../../../contract/spaces.ts';
import { api } from '../../lib/api.ts';
import { withApp } from '../app/with-app.tsx';
import { Alert } from '../shared/Alert.tsx';
import { navigate } from '../shared/navigate.ts';
import { noSpaceError, ScreenProblem } from '../shared/Problem.tsx';
import { useLoad } from '../shared/use-load.ts';
import { DeleteSpace } from './DeleteSpace.tsx';
import { requireMe } from './members-data.ts';
import { SettingsForm } from './SettingsForm.tsx';
import { SettingsView } from './SettingsView.tsx';
import { TransferOwnership } from './TransferOwnership.tsx';
import { useSpaceId } from './use-space-id.ts';
import './management.css';

interface GeneralData {
  readonly me: Me;
  readonly space: Space;
  readonly members: readonly Member[];
}

async function loadGeneral(spaceId: string): Promise<GeneralData> {
  const me = await requireMe();
  const [space, members] = await Promise.all([
    api<Space>(`/spaces/${spaceId}`),
    api<{ items: Member[] }>(`/spaces/${spaceId}/members`),
  ]);
  return { me, space, members: members.items };
}

/** /console/management/general/{space_id}: settings, transfer of ownership and deletion, each shown to who may use it. */
export function GeneralScreen() {
  const spaceId = useSpaceId();
  const load = useCallback(() => (spaceId ? loadGeneral(spaceId) : Promise.reject(noSpaceError())), [spaceId]);
  const { loaded, reload } = useLoad(spaceId === undefined ? null : load);
  const [notice, setNotice] = useState<string | null>(null);

  if (loaded.state === 'loading')
    return (
      <p className="muted" role="status">
        Loading settings…
      </p>
    );
  if (loaded.state === 'error') return <ScreenProblem error={loaded.error} onRetry={reload} />;
  const { me, space, members } = loaded.data;
  const owner = space.role === 'owner';

  return (
    <div className="stack sg-management">
      {notice && <Alert tone="success">{notice}</Alert>}
      <section className="card panel" aria-labelledby="sg-settings-heading">
        <h2 id="sg-settings-heading">Settings</h2>
        {atLeast(space.role, 'admin') ? (
          <SettingsForm space={space} onSaved={() => reload()} />
        ) : (
          <SettingsView space={space} />
        )}
      </section>
      {owner && (
        <section className="card panel" aria-labelledby="sg-transfer-heading">
          <h2 id="sg-transfer-heading">Transfer ownership</h2>
          <TransferOwnership
            spaceId={space.id}
            myId={me.id}
            members={members}
            onTransferred={(to) => {
              setNotice(`${to.name} is now the owner of ${space.name}; you are an admin.`);
              reload();
            }}
          />
        </section>
      )}
      {owner && (
        <section className="card panel sg-danger-zone" aria-labelledby="sg-delete-heading">
          <h2 id="sg-delete-heading">Delete this space</h2>
          <DeleteSpace spaceId={space.id} spaceName={space.name} onDeleted={() => navigate('/spaces')} />
        </section>
      )}
    </div>
  );
}

export default withApp(GeneralScreen);
