/** Where the shared test server listens. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4399);
export const BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
