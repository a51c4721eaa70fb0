import { countChange, percentText, periodWords, rateChange } from './change-text.ts';

test.each([
  ['24h', '24 h'],
  ['1h', '1 h'],
  ['7d', '7 days'],
  ['30d', '30 days'],
  ['1d', '1 day'],
])('periodWords(%s) is $1', (range, expected) => {
  expect(periodWords(range)).toBe(expected);
});

test.each([
  [112, 100, 'up 12% vs previous 24 h', 'up'],
  [60, 100, 'down 40% vs previous 24 h', 'down'],
  [5, 5, 'no change vs previous 24 h', 'same'],
  [0, 0, 'no change vs previous 24 h', 'same'],
  [3, 0, 'new: none in previous 24 h', 'up'],
  [0, 4, 'down 100% vs previous 24 h', 'down'],
  [1001, 1000, 'up less than 1% vs previous 24 h', 'up'],
  [2500, 100, 'up 2,400% vs previous 24 h', 'up'],
])('countChange(%i, %i) is "$2"', (current, previous, text, direction) => {
  expect(countChange(current, previous, '24 h')).toEqual({ text, direction });
});

test.each([
  [0.5, 0.25, 'up 25 points vs previous 24 h', 'up'],
  [0.5, 2 / 3, 'down 16.7 points vs previous 24 h', 'down'],
  [0.5, 0.5, 'no change vs previous 24 h', 'same'],
  [0.501, 0.5, 'up 0.1 points vs previous 24 h', 'up'],
  [null, 0.5, 'no requests in the last 24 h', 'same'],
  [0.5, null, 'new: no requests in previous 24 h', 'same'],
])('rateChange(%s, %s) is "$2"', (current, previous, text, direction) => {
  expect(rateChange(current, previous, '24 h')).toEqual({ text, direction });
});

test.each([
  [0.5, '50%'],
  [2 / 3, '66.7%'],
  [null, '–'],
  [0, '0%'],
])('percentText(%s) is $1', (rate, expected) => {
  expect(percentText(rate)).toBe(expected);
});
