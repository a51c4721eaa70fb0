import { childPath, formatScalar, kindOf, previewText, sizeText } from './json-preview.ts';

test.each([
  { value: 'a', expected: 'string' },
  { value: 1.5, expected: 'number' },
  { value: true, expected: 'boolean' },
  { value: null, expected: 'null' },
  { value: [], expected: 'array' },
  { value: {}, expected: 'object' },
])('kindOf($value) is $expected', ({ value, expected }) => {
  expect(kindOf(value)).toBe(expected);
});

test.each([
  { value: [], expected: '[]' },
  { value: {}, expected: '{}' },
  { value: [1], expected: '[ 1 ]' },
  { value: [1, 'two', 3], expected: '[ 1, "two", … ]' },
  { value: { a: { b: 1 }, c: [] }, expected: '{ "a": {…}, "c": [] }' },
  { value: [[1], { a: 1 }, null], expected: '[ […], {…}, … ]' },
])('previewText($value) is $expected', ({ value, expected }) => {
  expect(previewText(value)).toBe(expected);
});

test.each([
  { value: [1], expected: '1 item' },
  { value: [1, 2], expected: '2 items' },
  { value: { a: 1 }, expected: '1 key' },
])('sizeText($value) is $expected', ({ value, expected }) => {
  expect(sizeText(value)).toBe(expected);
});

test.each([
  { parent: '', key: 'a', expected: '/a' },
  { parent: '/a', key: 'b/c', expected: '/a/b~1c' },
  { parent: '', key: 'm~n', expected: '/m~0n' },
])('childPath($parent, $key) is $expected', ({ parent, key, expected }) => {
  expect(childPath(parent, key)).toBe(expected);
});

test('strings are shown quoted and escaped', () => {
  expect(formatScalar('say "hi"')).toBe('"say \\"hi\\""');
});
