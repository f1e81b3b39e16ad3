import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'api',
    include: ['src/**/*.test.ts'],
    globalSetup: ['src/test/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // One module graph per worker, not per file: each file imported the whole app again (about
    // 12 s of import and transform per file, 127 files). The API runs as one long process in
    // production too, so a module that keeps state between files is a bug either way: sharing the
    // graph found one (invoice PDFs lost letters after a Lithuanian one). Each file still gets
    // its own database and its own app.
    isolate: false,
  },
});
