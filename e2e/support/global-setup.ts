// Starts the product once for all browser journeys: API, worker and embedded node on a fresh
// embedded database, exactly what `npm start` runs.
import type { TestProject } from 'vitest/node';
import { startProduct } from '../../scripts/lib/processes.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
  }
}

export default async function setup(project: TestProject) {
  const product = await startProduct();
  project.provide('baseUrl', product.url);
  project.provide('dataDir', product.dataDir);
  return async () => {
    await product.stop();
  };
}
