import { defineProject } from 'vitest/config';

export default defineProject({ test: { name: 'pricing', include: ['src/**/*.test.ts'] } });
