import agentPackage from '../package.json' with { type: 'json' };

/** Sent with registration and every report. */
export const AGENT_VERSION: string = agentPackage.version;
