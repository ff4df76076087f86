import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One log line per request, written when the answer has gone: its method, URL, status and
 * response time, with the request id every line of the request carries (`reqId`). Fastify's own
 * writes two (`incoming request`, `request completed`); each is a synchronous write, a cost
 * every request paid (decision 019). Never headers or bodies: cookies and passwords stay out.
 */
export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = {
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      responseTime: reply.elapsedTime,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
