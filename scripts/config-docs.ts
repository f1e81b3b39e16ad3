// `npm run docs:config`: writes docs/configuration.md's tables afresh from the API's and the agent's
// configuration schemas (apps/api/src/docs/config-docs.ts). The API's tests fail until the page
// written here is committed with a schema change.
import { writeFileSync } from 'node:fs';
import {
  CONFIGURATION_PAGE,
  readConfigurationPage,
  renderConfigurationPage,
} from '../apps/api/src/docs/config-docs.ts';

const page = readConfigurationPage();
const next = renderConfigurationPage(page);
writeFileSync(CONFIGURATION_PAGE, next);
console.log(next === page ? 'docs/configuration.md is up to date' : 'docs/configuration.md written');
