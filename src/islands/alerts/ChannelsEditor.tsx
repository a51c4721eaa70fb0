import { alertLimits } from '../../../contract/constants/alerts.ts';
import { Field } from '../shared/Field.tsx';
import { errorUnder, type FieldErrors } from '../shared/field-errors.ts';
import { type ChannelDraft, channelKey } from './rule-draft.ts';
import { generateSecret } from './webhook-secret.ts';

interface Props {
  readonly channels: readonly ChannelDraft[];
  readonly onChange: (channels: ChannelDraft[]) => void;
  /** The API's messages (`channels.1.url`). */
  readonly errors: FieldErrors;
}

/** Where a rule notifies: email addresses, or a webhook URL with the secret its bodies are signed with. */
export function ChannelsEditor({ channels, onChange, errors }: Props) {
  const edit = (index: number, channel: ChannelDraft): void =>
    onChange(channels.map((item, at) => (at === index ? channel : item)));
  const full = channels.length >= alertLimits.channels;
  return (
    <fieldset className="sg-al-channels">
      <legend>Notifications</legend>
      {channels.length === 0 && <p className="muted">No channels: alerts show here only.</p>}
      {errors.channels && <p className="field__error">{errors.channels}</p>}
      {channels.map((channel, index) => {
        const at = `channels.${index}`;
        const name = `${channel.kind === 'email' ? 'Email' : 'Webhook'} channel ${index + 1}`;
        return (
          // biome-ignore lint/a11y/useSemanticElements: a nested fieldset per channel would repeat the legend's noise
          <div key={channel.key} className="sg-al-channel" role="group" aria-label={name}>
            {channel.kind === 'email' ? (
              <Field
                label={`Email addresses (${name})`}
                value={channel.to}
                autoComplete="off"
                hint={`Separated by commas; at most ${alertLimits.emailsPerChannel}.`}
                error={errorUnder(errors, `${at}.to`) ?? errors[at]}
                onChange={(event) => edit(index, { ...channel, to: event.currentTarget.value })}
              />
            ) : (
              <>
                <Field
                  label={`Webhook URL (${name})`}
                  type="url"
                  value={channel.url}
                  autoComplete="off"
                  placeholder="https://hooks.example.com/spaceguard"
                  error={errors[`${at}.url`] ?? errors[at]}
                  onChange={(event) => edit(index, { ...channel, url: event.currentTarget.value })}
                />
                <div className="row sg-al-secret">
                  <Field
                    label={`Signing secret (${name})`}
                    value={channel.secret}
                    autoComplete="off"
                    spellCheck={false}
                    hint={
                      channel.secretHint
                        ? `Saved secret ends in …${channel.secretHint}; leave empty to keep it.`
                        : 'At least 16 characters; bodies are signed with HMAC-SHA256 of it.'
                    }
                    error={errors[`${at}.secret`]}
                    onChange={(event) => edit(index, { ...channel, secret: event.currentTarget.value })}
                  />
                  <button
                    type="button"
                    className="button secondary"
                    aria-label={`Generate a secret for ${name}`}
                    onClick={() => edit(index, { ...channel, secret: generateSecret() })}
                  >
                    Generate
                  </button>
                </div>
              </>
            )}
            <button
              type="button"
              className="button secondary"
              aria-label={`Remove ${name}`}
              onClick={() => onChange(channels.filter((_, at2) => at2 !== index))}
            >
              Remove
            </button>
          </div>
        );
      })}
      <div className="row">
        <button
          type="button"
          className="button secondary"
          disabled={full}
          onClick={() => onChange([...channels, { key: channelKey(), kind: 'email', to: '' }])}
        >
          Add email
        </button>
        <button
          type="button"
          className="button secondary"
          disabled={full}
          onClick={() =>
            onChange([
              ...channels,
              { key: channelKey(), kind: 'webhook', url: '', secret: generateSecret(), secretHint: null },
            ])
          }
        >
          Add webhook
        </button>
      </div>
    </fieldset>
  );
}
