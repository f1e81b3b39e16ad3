// The agent run on its own: `npm start -w @debesis/agent` (or `tsx src/main.ts`), configured by
// the AGENT_* variables documented in config.ts. Logs JSON lines to stderr (pino); SIGINT/SIGTERM stop it
// after the pass in progress.
import { startAgent } from './agent.ts';
import { AgentConfigError, loadAgentConfig } from './config.ts';
import { createJsonLogger, LOG_LEVELS } from './logger.ts';

function main(): void {
  let config;
  try {
    config = loadAgentConfig(process.env);
  } catch (error) {
    if (error instanceof AgentConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const level = LOG_LEVELS.find((l) => l === process.env.AGENT_LOG_LEVEL);
  const logger = createJsonLogger((line) => process.stderr.write(line), {
    level,
    bindings: { name: 'agent', node: config.nodeName },
  });
  logger.info({ api_url: config.apiUrl, data_dir: config.dataDir }, 'agent starting');
  const agent = startAgent(config, logger);

  let signals = 0;
  const shutdown = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals > 1) process.exit(1);
    logger.info({ signal }, 'stopping');
    agent.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'stop failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main();
