import type { Options, Point } from 'highcharts';
import { useId, useMemo, useState } from 'react';
import type { FirewallSettings } from '../../../contract/firewall-settings.ts';
import { $draft, editDraft } from '../../stores/firewalls.ts';
import { Highmap } from '../charts/Highmap.tsx';
import { countryName, searchCountries, toggleCountry } from '../shared/countries.ts';
import { type FieldErrors, listError } from '../shared/field-errors.ts';

interface Props {
  readonly settings: FirewallSettings;
  readonly errors: FieldErrors;
  readonly editable: boolean;
}

/** Adds or removes a country in the page's draft (read at click time, so the map's handler is never stale). */
function toggle(code: string): void {
  const draft = $draft.get();
  if (draft) editDraft('countryBlock', toggleCountry(draft.settings.countryBlock, code));
}

/** Countries blocked by their IP ranges: picked on the world map or from a searchable list, both in step. */
export function CountriesTab({ settings, errors, editable }: Props) {
  const [query, setQuery] = useState('');
  const searchId = useId();
  const listId = useId();
  const blocked = settings.countryBlock;
  const shown = searchCountries(query);
  const options = useMemo<Options>(
    () => ({
      accessibility: {
        landmarkVerbosity: 'disabled',
        description: `World map of blocked countries: ${blocked.length === 0 ? 'none' : blocked.map(countryName).join(', ')}.`,
        // No heading of its own: Highcharts' default <h6> breaks the tab's heading order (axe heading-order).
        screenReaderSection: {
          beforeChartFormat:
            '<p>{chartTitle}</p><div>{typeDescription}</div><div>{chartSubtitle}</div><div>{chartLongdesc}</div><div>{viewTableButton}</div>',
        },
      },
      legend: { enabled: false },
      colorAxis: {
        dataClasses: [
          { from: 0, to: 0, color: '#9aa3b5', name: 'Allowed' },
          { from: 1, to: 1, color: '#b42318', name: 'Blocked' },
        ],
      },
      tooltip: { pointFormat: '{point.name}: {point.blocking}' },
      series: [
        {
          type: 'map',
          name: 'Countries',
          joinBy: ['iso-a2', 'code'],
          allAreas: true,
          cursor: editable ? 'pointer' : 'default',
          data: searchCountries('').map((country) => {
            const on = blocked.includes(country.code);
            return { code: country.code, id: country.code, value: on ? 1 : 0, blocking: on ? 'blocked' : 'allowed' };
          }),
          point: {
            events: {
              click(this: Point) {
                const code = this.options.id;
                if (editable && typeof code === 'string') toggle(code);
              },
            },
          },
        },
      ],
    }),
    [blocked, editable],
  );
  return (
    <>
      <p className="muted">
        Requests from the IP ranges of these countries are refused with 403 (from the same offline IP-to-country data
        the event log uses). {editable ? 'Click a country on the map, or use the list.' : ''}
      </p>
      <p role="status">
        {blocked.length === 0
          ? 'No countries blocked.'
          : `${blocked.length} ${blocked.length === 1 ? 'country' : 'countries'} blocked: ${blocked.map(countryName).join(', ')}.`}
      </p>
      {listError(errors, 'countryBlock') && (
        <p className="field__error">Countries: {listError(errors, 'countryBlock')}</p>
      )}
      <Highmap options={options} mapData="/maps/world-110m.json" label="World map of blocked countries" height={320} />
      <fieldset className="sg-fw-item">
        <legend>Countries</legend>
        <div className="field">
          <label htmlFor={searchId}>Search countries</label>
          <input
            id={searchId}
            className="input"
            type="search"
            value={query}
            aria-controls={listId}
            onChange={(event) => setQuery(event.currentTarget.value)}
          />
        </div>
        <ul className="sg-fw-checks sg-fw-countries" id={listId}>
          {shown.map((country) => (
            <li key={country.code}>
              <input
                type="checkbox"
                id={`${listId}-${country.code}`}
                checked={blocked.includes(country.code)}
                onChange={() => toggle(country.code)}
              />
              <label htmlFor={`${listId}-${country.code}`}>
                {country.name} <span className="muted">{country.code}</span>
              </label>
            </li>
          ))}
        </ul>
        {shown.length === 0 && <p className="muted">No country matches “{query}”.</p>}
      </fieldset>
    </>
  );
}
