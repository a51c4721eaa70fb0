/**
 * `/crs-messages.json`: the CRS rule messages (rule id → msg), pre-rendered at build from the installed CRS where
 * there is one, else from the committed table of CRS 3.3.4 (contract/constants/crs-messages.json).
 */
import type { APIRoute } from 'astro';
import fallback from '../../contract/constants/crs-messages.json';
import { crsMessagesJson, readCrsMessages } from '../integrations/crs-messages.ts';

export const prerender = true;

export const GET: APIRoute = () =>
  new Response(crsMessagesJson(readCrsMessages() ?? fallback), {
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
