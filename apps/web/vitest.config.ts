import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    environmentOptions: { jsdom: { url: 'http://localhost:3000/' } },
    setupFiles: ['./src/test/setup.ts'],
    restoreMocks: true,
    // A tab's test clicks through a whole flow (pick a file, fill a dialog, save, read the answer):
    // 1–3 s alone, past Vitest's 5 s default when the unit stage shares the machine with lint and
    // the live suites (seen: the share links' file picker at 5.2 s under a load average of 10).
    testTimeout: 15_000,
  },
});
