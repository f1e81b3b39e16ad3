// The API's module boundaries, checked by dependency-cruiser: apps/api/src/modules/boundaries.test.ts
// runs it with the API's tests, and `npx depcruise apps/api/src/modules` tells the same in a shell.
// A module is one folder under apps/api/src/modules (ARCHITECTURE.md, "Parts").
const MODULE = '^apps/api/src/modules/[^/]+$';
const IN_A_SUBFOLDER = '^apps/api/src/modules/[^/]+/.+/';
// The cycle rule sees a folder's own files only (a file in a/b/ is of folder a/b, not a).
const FLAT = {
  name: 'module-files-flat',
  severity: 'error',
  comment: 'A module keeps its files directly in its folder, so that the cycle rule sees them all.',
};

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-module-cycle',
      severity: 'error',
      comment:
        'No two API modules may depend on each other, directly or around a loop (an `import type` ' +
        'counts: needing the types of a module is depending on it). A lower module that needs ' +
        'something of a higher one takes it as a port in its deps, which app.ts wires.',
      scope: 'folder',
      from: { path: MODULE },
      to: { path: MODULE, circular: true },
    },
    { ...FLAT, from: { path: IN_A_SUBFOLDER }, to: {} },
    { ...FLAT, from: {}, to: { path: IN_A_SUBFOLDER } },
  ],
  options: {
    // Tests may reach across modules to build what they need; the layering is the shipped code's.
    exclude: { path: '\\.(test|test-support)\\.ts$' },
    includeOnly: '^apps/api/src/modules/',
    tsPreCompilationDeps: true,
    moduleSystems: ['es6'],
  },
};
