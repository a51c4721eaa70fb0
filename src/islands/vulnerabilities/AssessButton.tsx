import { useState } from 'react';
import type { Assessment } from '../../../contract/findings.ts';
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
  const assessing = useSubmit(async () => {
    setDone(null);
    const answer = await assessNow(spaceId, assetId);
    setDone(assessmentText(answer));
  });
  return (
    <div className="sg-vu-assess">
      <button type="button" className="button" disabled={assessing.pending} onClick={() => assessing.run()}>
        {assessing.pending ? 'Assessing…' : label}
      </button>
      {done && <Alert tone="success">{done}</Alert>}
      {assessing.error && <Alert tone="error">{assessing.error}</Alert>}
    </div>
  );
}
