import { useState } from 'react';
import type { Assessment } from '../../../contract/findings.ts';
import { call, client } from '../../lib/api.ts';
import { invalidateApi } from '../../stores/fetcher.ts';
import { Alert } from '../shared/Alert.tsx';
import { useSubmit } from '../shared/use-submit.ts';

const plural = (n: number, word: string) => `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`;

/** What an assessment found, in one sentence. */
export function assessmentText(a: Assessment): string {
  return `Assessed ${plural(a.assets, 'asset')} (${plural(a.components, 'component')}): ${a.findingsNew} new, ${a.findingsFixed} fixed, ${a.findingsReopened} found again.`;
}

/** Runs an assessment of one asset (or all) now and says what it found (admins). */
export function AssessButton({ spaceId, assetId, label }: { spaceId: string; assetId?: string; label: string }) {
  const [done, setDone] = useState<string | null>(null);
  const assessing = useSubmit(async () => {
    setDone(null);
    const answer = await call(
      client.spaces[':spaceId'].assessments.$post({ param: { spaceId }, json: assetId ? { assetId } : {} }),
    );
    setDone(assessmentText(answer));
    invalidateApi('findings', 'finding-trend', 'assets', 'asset');
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
