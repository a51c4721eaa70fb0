interface Props {
  /** One or more lines of values per bucket, oldest first, drawn on one scale (the first in the text colour). */
  readonly series: readonly (readonly number[])[];
  /** What the lines show, read out in place of the drawing. */
  readonly label: string;
  readonly className: string;
  readonly width?: number;
  readonly height?: number;
}

// The lines after the first, in order: the firewall list's blocked requests under its events.
const laterStrokes = ['var(--danger)'];

/**
 * Values over time as a small inline SVG line, without axes: the one sparkline, in table rows where fifty charts
 * would be too heavy (the firewall list, WAF discover). It loads no chart code.
 */
export function Sparkline({ series, label, className, width = 120, height = 28 }: Props) {
  const max = Math.max(1, ...series.flat());
  const pointsOf = (values: readonly number[]): string => {
    const step = values.length > 1 ? width / (values.length - 1) : width;
    return values
      .map((value, index) => `${(index * step).toFixed(1)},${(height - 2 - (value / max) * (height - 4)).toFixed(1)}`)
      .join(' ');
  };
  return (
    <svg
      className={className}
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={label}
    >
      {series.map((values, index) => (
        <polyline
          // biome-ignore lint/suspicious/noArrayIndexKey: a line is its place in the series
          key={index}
          points={pointsOf(values)}
          fill="none"
          stroke={index === 0 ? 'currentColor' : (laterStrokes[index - 1] ?? 'currentColor')}
          strokeWidth="1.5"
          strokeLinejoin="round"
        />
      ))}
    </svg>
  );
}
