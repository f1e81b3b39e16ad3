// The fake API for unit tests. Unknown requests fail the test (see setup.ts), so a test can
// never pass by accident against a call nobody described.
import { setupServer } from 'msw/node';

export const server = setupServer();
