interface Props {
  /** Events per bucket, oldest first. */
  readonly values: readonly number[];
  /** What the line shows, read out in place of the drawing. */
  readonly label: string;
}

const WIDTH = 120;
const HEIGHT = 28;

/** A group's events over the range as a small inline SVG line (fifty rows of charts would be too heavy). */
export function DiscoverSparkline({ values, label }: Props) {
  const max = Math.max(1, ...values);
  const step = values.length > 1 ? WIDTH / (values.length - 1) : WIDTH;
  const points = values
    .map((value, index) => `${(index * step).toFixed(1)},${(HEIGHT - 2 - (value / max) * (HEIGHT - 4)).toFixed(1)}`)
    .join(' ');
  return (
    <svg
      className="sg-waf-spark"
      width={WIDTH}
      height={HEIGHT}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-label={label}
    >
      <polyline points={points} fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" />
    </svg>
  );
}
