// The Node adapter serves the on-demand route; nothing here is for sluice.
import node from '@astrojs/node';
import { defineConfig } from 'astro/config';

export default defineConfig({ adapter: node({ mode: 'standalone' }) });
