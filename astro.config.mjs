// @ts-check
import react from '@astrojs/react';
import { defineConfig } from 'astro/config';
import flagAssets from './src/integrations/flag-assets.ts';
import mapAssets from './src/integrations/map-assets.ts';
import spaceguard from './src/integrations/spaceguard.ts';

// Static output: one HTML shell per route of the seed, React islands hydrated on the client.
export default defineConfig({
  output: 'static',
  trailingSlash: 'ignore',
  build: { format: 'directory', inlineStylesheets: 'always' },
  server: { host: '127.0.0.1', port: 4321 },
  integrations: [react(), mapAssets(), flagAssets(), spaceguard()],
});
