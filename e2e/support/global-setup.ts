// Starts the product once for all browser journeys: API, worker and embedded node on a fresh
// embedded database, exactly what `npm start` runs — plus a local OpenID provider standing in
// for Google, so the OAuth journey runs the real protocol without the internet.
import type { TestProject } from 'vitest/node';
import { startE2eGoogle } from '../../scripts/lib/local-oidc-provider.ts';
import { startProduct } from '../../scripts/lib/processes.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
  }
}

export default async function setup(project: TestProject) {
  const google = await startE2eGoogle();
  const product = await startProduct(google.env);
  google.registerProduct(product.url);
  project.provide('baseUrl', product.url);
  project.provide('dataDir', product.dataDir);
  return async () => {
    await product.stop();
    await google.provider.stop();
  };
}
