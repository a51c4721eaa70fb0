import { useEffect, useState } from 'react';
import type { Firewall } from '../../../contract/firewalls.ts';
import { errorMessage } from '../../lib/api.ts';
import { $previewFiles, $previewVersion, rotateFirewallToken } from '../../stores/firewalls.ts';
import { Alert } from '../shared/Alert.tsx';
import { ConfirmButton } from '../shared/ConfirmButton.tsx';
import { CopyButton } from '../shared/CopyButton.tsx';
import { Problem } from '../shared/Problem.tsx';
import { useApi } from '../shared/use-api.ts';
import { ConnectorCommand } from './ConnectorCommand.tsx';
import { ConnectorTokenReveal } from './ConnectorTokenReveal.tsx';

interface Props {
  readonly spaceId: string;
  readonly firewall: Firewall;
  /** Admins and owners rotate the token. */
  readonly editable: boolean;
}

/** Saves a text as a file through a temporary link. */
function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name.split('/').join('_');
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The newest version's generated files, read-only with copy and download; the connector token and command. */
export function PreviewTab({ spaceId, firewall, editable }: Props) {
  const files = useApi($previewFiles);
  const [token, setToken] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    $previewVersion.set(String(firewall.version));
  }, [firewall.version]);
  useEffect(() => () => $previewVersion.set(null), []);

  const rotate = async (): Promise<void> => {
    try {
      const rotated = await rotateFirewallToken(spaceId, firewall.id);
      setToken(rotated.token);
      setProblem(null);
    } catch (error) {
      setProblem(`The token was not rotated: ${errorMessage(error)}`);
    }
  };

  return (
    <>
      <section aria-labelledby="sg-fw-token-heading">
        <h3 id="sg-fw-token-heading">Connector token</h3>
        {problem && <Alert tone="error">{problem}</Alert>}
        {token ? (
          <ConnectorTokenReveal token={token} title="New connector token issued; the old one no longer works." />
        ) : (
          <>
            <p>
              The token starts with <code className="sg-mono">{firewall.tokenPrefix}</code>. It was shown once, when the
              firewall was created or its token last rotated.
            </p>
            <ConnectorCommand token={null} />
          </>
        )}
        {editable && (
          <div className="row">
            <ConfirmButton
              label="Rotate token"
              question="Rotate the connector token? The running connector stops receiving versions until it gets the new one."
              confirmLabel="Rotate"
              onConfirm={rotate}
            />
          </div>
        )}
      </section>
      <section aria-labelledby="sg-fw-files-heading">
        <h3 id="sg-fw-files-heading">Generated files of version {firewall.version}</h3>
        <p className="muted">What the connector applies: read-only, generated from the saved settings.</p>
        {files.loaded.state === 'loading' && (
          <p className="muted" role="status">
            Loading the generated files…
          </p>
        )}
        {files.loaded.state === 'error' && <Problem error={files.loaded.error} onRetry={files.retry} />}
        {files.loaded.state === 'ready' &&
          Object.entries(files.loaded.data.files)
            .sort(([a], [b]) => (a < b ? -1 : 1))
            .map(([name, text]) => (
              <div key={name} className="sg-fw-file">
                <h4 className="sg-mono">{name}</h4>
                <div className="row">
                  <CopyButton text={text} label={`Copy ${name}`} />
                  <button type="button" className="button secondary" onClick={() => download(name, text)}>
                    Download {name}
                  </button>
                </div>
                <section className="sg-fw-scroll" aria-label={`Contents of ${name}`}>
                  {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box must be reachable by keyboard */}
                  <pre className="sg-fw-pre" tabIndex={0}>
                    {text === '' ? '(empty)' : text}
                  </pre>
                </section>
              </div>
            ))}
      </section>
    </>
  );
}
