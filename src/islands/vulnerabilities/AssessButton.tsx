import { useState } from 'react';
import type { Assessment } from '../../../contract/findings.ts';
import { buildPath } from '../../lib/routes.ts';
import { assessNow } from '../../stores/findings.ts';
import { Alert } from '../shared/Alert.tsx';
import { countOf } from '../shared/format.ts';
import { useSubmit } from '../shared/use-submit.ts';

/** What an assessment found, in one sentence. */
export function assessmentText(a: Assessment): string {
  return `Assessed ${countOf(a.assets, 'asset')} (${countOf(a.components, 'component')}): ${a.findingsNew} new, ${a.findingsFixed} fixed, ${a.findingsReopened} found again.`;
}

/** Runs an assessment of one asset (or all) now and says what it found (admins). */
export function AssessButton({ spaceId, assetId, label }: { spaceId: string; assetId?: string; label: string }) {
  const [done, setDone] = useState<string | null>(null);
  const [emptyLibrary, setEmptyLibrary] = useState(false);
  const assessing = useSubmit(async () => {
    setDone(null);
    const answer = await assessNow(spaceId, assetId);
    setDone(assessmentText(answer));
    setEmptyLibrary(answer.libraryRecords === 0);
  });
  return (
    <div className="sg-vu-assess">
      <button type="button" className="button" disabled={assessing.pending} onClick={() => assessing.run()}>
        {assessing.pending ? 'Assessing…' : label}
      </button>
      {done && !emptyLibrary && <Alert tone="success">{done}</Alert>}
      {done && emptyLibrary && (
        <div className="alert alert--error" role="alert">
          <p>
            <strong>The vulnerability library is empty, so nothing could be found.</strong> {done} No finding does not
            mean no vulnerability: the components were matched against no records.
          </p>
          <p>
            <a href={buildPath('/console/vulnerabilities/refs/{space_id}', { space_id: spaceId })}>
              Import OSV records into the library
            </a>
            , then assess again.
          </p>
        </div>
      )}
      {assessing.error && <Alert tone="error">{assessing.error}</Alert>}
    </div>
  );
}
