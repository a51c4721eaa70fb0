import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { atLeast } from '../../../contract/roles.ts';
import { $members } from '../../stores/members.ts';
import { $spaceId } from '../../stores/route.ts';
import { $space } from '../../stores/space.ts';
import { withApp } from '../app/with-app.tsx';
import { Alert } from '../shared/Alert.tsx';
import { Loaded } from '../shared/Loaded.tsx';
import { navigate } from '../shared/navigate.ts';
import { all, useApi } from '../shared/use-api.ts';
import { useSignedIn } from '../shared/use-signed-in.ts';
import { DeleteSpace } from './DeleteSpace.tsx';
import { SettingsForm } from './SettingsForm.tsx';
import { SettingsView } from './SettingsView.tsx';
import { TransferOwnership } from './TransferOwnership.tsx';
import './management.css';

/** /console/management/general/{space_id}: settings, transfer of ownership and deletion, each shown to who may use it. */
export function GeneralScreen() {
  const spaceId = useStore($spaceId);
  const signedIn = useSignedIn();
  const space = useApi($space);
  const members = useApi($members);
  const [notice, setNotice] = useState<string | null>(null);
  const loaded = all(signedIn.loaded, space.loaded, members.loaded);
  const retry = (): void => {
    if (signedIn.loaded.state === 'error') signedIn.retry();
    space.retry();
    members.retry();
  };

  return (
    <Loaded spaceId={spaceId} loaded={loaded} retry={retry} loading="Loading settings…">
      {(data) => {
        const [me, current, { items: memberList }] = data;
        const owner = current.role === 'owner';

        return (
          <div className="stack sg-management">
            {notice && <Alert tone="success">{notice}</Alert>}
            <section className="card panel" aria-labelledby="sg-settings-heading">
              <h2 id="sg-settings-heading">Settings</h2>
              {atLeast(current.role, 'admin') ? <SettingsForm space={current} /> : <SettingsView space={current} />}
            </section>
            {owner && (
              <section className="card panel" aria-labelledby="sg-transfer-heading">
                <h2 id="sg-transfer-heading">Transfer ownership</h2>
                <TransferOwnership
                  spaceId={current.id}
                  myId={me.id}
                  members={memberList}
                  onTransferred={(to) => setNotice(`${to.name} is now the owner of ${current.name}; you are an admin.`)}
                />
              </section>
            )}
            {owner && (
              <section className="card panel sg-danger-zone" aria-labelledby="sg-delete-heading">
                <h2 id="sg-delete-heading">Delete this space</h2>
                <DeleteSpace spaceId={current.id} spaceName={current.name} onDeleted={() => navigate('/spaces')} />
              </section>
            )}
          </div>
        );
      }}
    </Loaded>
  );
}

export default withApp(GeneralScreen);
