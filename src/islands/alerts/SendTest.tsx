import { useState } from 'react';
import type { z } from 'zod';
import type { ChannelTestResult } from '../../../contract/notifications.ts';
import { testAlertRuleChannels } from '../../stores/alerts.ts';
import { Alert } from '../shared/Alert.tsx';
import { useSubmit } from '../shared/use-submit.ts';

type Results = z.infer<typeof ChannelTestResult>['results'];

/** "Send test": a test notification to each channel of a saved rule, with each channel's answer. */
export function SendTest({ spaceId, ruleId }: { readonly spaceId: string; readonly ruleId: string }) {
  const [results, setResults] = useState<Results | null>(null);
  const submit = useSubmit(async () => {
    setResults(null);
    const answer = await testAlertRuleChannels(spaceId, ruleId);
    setResults(answer.results);
  });
  return (
    <section className="sg-al-test" aria-labelledby="sg-al-test-heading">
      <div className="row">
        <h3 id="sg-al-test-heading">Test the channels</h3>
        <button type="button" className="button secondary" disabled={submit.pending} onClick={() => void submit.run()}>
          {submit.pending ? 'Sending…' : 'Send test'}
        </button>
      </div>
      <p className="muted">Uses the saved channels: save your changes first.</p>
      {submit.error && <Alert tone="error">{submit.error}</Alert>}
      {results && (
        <ul className="sg-al-results" role="status">
          {results.length === 0 && <li>The rule has no channels.</li>}
          {results.map((result, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: one answer's list, replaced whole and never reordered
            <li key={index} className={result.ok ? undefined : 'sg-has-errors'}>
              {result.ok ? '✓' : '✗'} {result.channel} <span className="sg-mono">{result.target}</span>
              {result.statusCode !== null ? ` (HTTP ${result.statusCode})` : ''}: {result.message}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
