import { type FormEvent, useId, useState } from 'react';
import { sourceKindLabels } from '../../../contract/constants/sources.ts';
import type { SourceKind, TestSourceAnswer } from '../../../contract/sources.ts';
import { errorMessage } from '../../lib/api.ts';
import { testSourceSample } from '../../stores/sources.ts';
import { Alert } from '../shared/Alert.tsx';
import { dateTime } from '../shared/format.ts';
import { TableScroll } from '../shared/TableScroll.tsx';
import { LineErrors } from './LineErrors.tsx';

interface Props {
  readonly spaceId: string;
  readonly sourceId: string;
  readonly kind: SourceKind;
}

type ParsedEvent = TestSourceAnswer['events'][number];

const plural = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** Method, host and path of an event as one request line. */
function requestOf(event: ParsedEvent): string {
  const target = `${event.host ?? ''}${event.path ?? ''}`;
  return [event.method, target].filter(Boolean).join(' ') || '—';
}

/** Paste a sample, see what each line becomes with the source's kind, or why it was refused; nothing is stored. */
export function ParserTest({ spaceId, sourceId, kind }: Props) {
  const sampleId = useId();
  const hintId = useId();
  const errorId = useId();
  const [sample, setSample] = useState('');
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [answer, setAnswer] = useState<TestSourceAnswer | null>(null);

  const submit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (sample.trim() === '') {
      setProblem('Paste at least one line to test.');
      return;
    }
    setPending(true);
    setProblem(null);
    try {
      setAnswer(await testSourceSample(spaceId, sourceId, sample));
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setPending(false);
    }
  };

  return (
    <div className="sg-parser-test">
      <form onSubmit={(event) => void submit(event)} noValidate aria-busy={pending} aria-label="Parser test">
        <div className="field">
          <label htmlFor={sampleId}>Sample</label>
          <textarea
            id={sampleId}
            className="input sg-mono sg-sample"
            rows={6}
            spellCheck={false}
            value={sample}
            onChange={(event) => setSample(event.currentTarget.value)}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${hintId} ${errorId}` : hintId}
          />
          <p className="field__hint" id={hintId}>
            Paste lines as the source sends them, read as {sourceKindLabels[kind]}: one record per line. Nothing is
            stored.
          </p>
          {problem && (
            <p className="field__error" id={errorId}>
              {problem}
            </p>
          )}
        </div>
        <button className="button" type="submit" disabled={pending}>
          {pending ? 'Testing…' : 'Test parser'}
        </button>
      </form>
      {answer && <ParserResult answer={answer} />}
    </div>
  );
}

/** The normalised events and the refused lines of one parser test. */
function ParserResult({ answer }: { readonly answer: TestSourceAnswer }) {
  const { events, errors } = answer;
  return (
    <div className="stack sg-parser-result">
      <Alert tone={errors.length > 0 ? 'error' : 'success'}>
        {plural(events.length, 'line', 'lines')} read as events, {plural(errors.length, 'line', 'lines')} refused.
      </Alert>
      {events.length > 0 && (
        <TableScroll label="Normalised events, scrollable">
          <table className="data sg-compact">
            <caption className="sg-caption">Normalised events</caption>
            <thead>
              <tr>
                <th scope="col">Line</th>
                <th scope="col">Time</th>
                <th scope="col">Action</th>
                <th scope="col">Severity</th>
                <th scope="col">Client IP</th>
                <th scope="col">Request</th>
                <th scope="col">Status</th>
                <th scope="col">Rules and tags</th>
                <th scope="col">Message</th>
              </tr>
            </thead>
            <tbody>
              {events.map((event) => (
                <tr key={event.line}>
                  <th scope="row">{event.line}</th>
                  <td className="sg-nowrap">{dateTime(event.time)}</td>
                  <td>{event.action}</td>
                  <td>{event.severity}</td>
                  <td className="sg-mono">
                    {event.ip ?? '—'}
                    {event.country && ` (${event.country})`}
                  </td>
                  <td className="sg-mono">{requestOf(event)}</td>
                  <td>{event.status ?? '—'}</td>
                  <td className="sg-mono">{[...event.ruleIds.map(String), ...event.tags].join(', ') || '—'}</td>
                  <td>{event.message ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {errors.length > 0 && <LineErrors errors={errors} label="Refused lines" />}
    </div>
  );
}
