// The bare Fastify instance: logging (one line per request), request ids, zod compilers, and
// connections that end when the app closes. Plugins and routes are added by app.ts.
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config.ts';
import { closeConnectionsWhenClosing } from '../http/closing-connections.ts';
import { loggerOptions } from '../http/logging.ts';
import { REQUEST_ID_HEADER, requestIdOf } from '../http/request-id.ts';

/** Logs each request once, when it completes, with what was asked and how it ended. */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const line = {
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      responseTimeMs: Math.round(reply.elapsedTime * 100) / 100,
    };
    if (error) request.log.error({ ...line, err: error }, 'request failed');
    else request.log.info(line, 'request completed');
  }
}

export function createServer(config: Config, logger: FastifyBaseLogger | false | undefined) {
  const app = Fastify({
    ...(logger ? { loggerInstance: logger } : { logger: logger ?? loggerOptions(config.LOG_LEVEL) }),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    // The header is read by `requestIdOf`, which keeps only a well-formed id.
    requestIdHeader: false,
    genReqId: requestIdOf,
    logController: new OneLinePerRequest(),
  }).withTypeProvider<ZodTypeProvider>();

  closeConnectionsWhenClosing(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done(null, payload);
  });
  return app;
}

export type Server = ReturnType<typeof createServer>;
