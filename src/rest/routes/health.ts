/** The public routes: GET /health (parser, LLM, judge, retrieval, storage) and GET /openapi.json. */
import type { FastifyPluginAsync } from 'fastify';
import type { CircuitSnapshot } from '../../core';
import type { RestContext } from '../context';
import { openApiDocument } from '../openapi';
import { storageHealth, storageReasons } from '../storage';

export const healthRoutes: FastifyPluginAsync<{ ctx: RestContext }> = (app, { ctx }) => {
  const { deps, options } = ctx;

  app.get('/health', async () => {
    const circuit: CircuitSnapshot = deps.assistant.parser.circuit();
    const storage = await storageHealth(deps);
    const reasons = storageReasons(storage);
    return {
      status: reasons.length ? 'degraded' : 'ok',
      reasons,
      parser: { endpoint: deps.assistant.parserEndpoint, circuit },
      llm: { host: deps.models.host, model: deps.models.main },
      judge: { enabled: Boolean(deps.quality), threshold: deps.quality?.threshold ?? 0 },
      retrieval: deps.assistant.retrievalName,
      storage,
    };
  });

  const openapi = openApiDocument(options.version, options.bodyLimit);
  app.get('/openapi.json', () => openapi);
  return Promise.resolve();
};
