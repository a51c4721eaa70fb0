import { allTasks, cleanStores } from 'nanostores';
import { $crsMessages, crsMessage, resetCrsMessagesForTests } from './crs-messages.ts';

const realFetch = globalThis.fetch;
afterEach(() => {
  cleanStores($crsMessages);
  resetCrsMessagesForTests();
  globalThis.fetch = realFetch;
});

/** Stubs fetch with one answer per call, in order; answers the stub. */
function answers(...bodies: (Response | Error)[]) {
  const stub = vi.fn(async () => {
    const next = bodies.shift();
    if (!next || next instanceof Error) throw next ?? new Error('no answer left');
    return next;
  });
  globalThis.fetch = stub as unknown as typeof fetch;
  return stub;
}

/** Waits for the store's fetch and its parsing to settle. */
const settle = async () => {
  await allTasks();
  await new Promise((resolve) => setTimeout(resolve, 0));
};

test('read once on the first subscription: rule ids with text messages, nothing else', async () => {
  const stub = answers(Response.json({ '942100': 'SQL Injection Attack Detected via libinjection', bad: 'x', '1': 2 }));
  expect($crsMessages.get()).toEqual({});
  const off = $crsMessages.listen(() => undefined);
  await settle();
  expect($crsMessages.get()).toEqual({ '942100': 'SQL Injection Attack Detected via libinjection' });
  expect(crsMessage($crsMessages.get(), '942100')).toBe('SQL Injection Attack Detected via libinjection');
  expect(crsMessage($crsMessages.get(), '999999')).toBeUndefined();
  expect(crsMessage($crsMessages.get(), 'constructor')).toBeUndefined();
  off();
  $crsMessages.listen(() => undefined);
  await settle();
  expect(stub).toHaveBeenCalledTimes(1);
  expect(stub).toHaveBeenCalledWith('/crs-messages.json', expect.anything());
});

test('a failure leaves it empty with one warning, and a later first subscription asks again', async () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  const stub = answers(
    new Response('nope', { status: 404 }),
    Response.json({ '920280': 'Request Missing a Host Header' }),
  );
  const off = $crsMessages.listen(() => undefined);
  await settle();
  expect($crsMessages.get()).toEqual({});
  expect(warn).toHaveBeenCalledTimes(1);
  off();
  // nanostores unmounts a store a moment after its last listener leaves.
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  $crsMessages.listen(() => undefined);
  await settle();
  expect(stub).toHaveBeenCalledTimes(2);
  expect($crsMessages.get()).toEqual({ '920280': 'Request Missing a Host Header' });
  warn.mockRestore();
});

test('the macros CRS rule files hold are dropped, so no "%{TX.ANOMALY_SCORE}" reaches a page', async () => {
  answers(
    Response.json({
      '949110': 'Inbound Anomaly Score Exceeded (Total Score: %{TX.ANOMALY_SCORE})',
      '980130':
        'Inbound Anomaly Score Exceeded (Total Inbound Score: %{TX.INBOUND_ANOMALY_SCORE} - SQLI=%{tx.sql_injection_score}): individual paranoia level scores: %{TX.ANOMALY_SCORE_PL1}, %{TX.ANOMALY_SCORE_PL2}',
      '912120':
        'Denial of Service (DoS) attack identified from %{tx.real_ip} (%{tx.dos_block_counter} hits since last alert)',
      '921180': 'HTTP Parameter Pollution (%{TX.1})',
      '980100':
        'Correlated Successful Attack Identified: (Total Score: %{tx.anomaly_score}) Inbound Attack (Inbound Anomaly Score: %{TX.INBOUND_ANOMALY_SCORE}) + Outbound Data Leakage (Outbound Anomaly Score: %{TX.OUTBOUND_ANOMALY_SCORE})',
    }),
  );
  $crsMessages.listen(() => undefined);
  await settle();
  expect($crsMessages.get()).toEqual({
    '949110': 'Inbound Anomaly Score Exceeded',
    '980130': 'Inbound Anomaly Score Exceeded',
    '912120': 'Denial of Service (DoS) attack identified',
    '921180': 'HTTP Parameter Pollution',
    '980100': 'Correlated Successful Attack Identified: Inbound Attack + Outbound Data Leakage',
  });
});
