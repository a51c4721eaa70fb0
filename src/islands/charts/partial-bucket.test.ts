import { partialBucketZones } from './partial-bucket.ts';

const hour = 3_600_000;

test('the segment into a last bucket the window ends inside is dotted', () => {
  const starts = [0, hour, 2 * hour];
  expect(partialBucketZones(starts, hour, 2 * hour + 20 * 60_000)).toEqual({
    zoneAxis: 'x',
    zones: [{ value: hour }, { dashStyle: 'ShortDot' }],
  });
});

test('whole buckets, a single bucket or none are drawn as they are', () => {
  expect(partialBucketZones([0, hour, 2 * hour], hour, 3 * hour)).toBeUndefined();
  expect(partialBucketZones([0], hour, 10)).toBeUndefined();
  expect(partialBucketZones([], hour, 10)).toBeUndefined();
});
