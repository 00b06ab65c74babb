import type { ReceiverResponse } from '@hookgate/core';
import type { FastifyReply } from 'fastify';

/**
 * Sends a receiver's answer (status, headers, JSON text) through a Fastify reply, unless one was sent.
 *
 * @example
 * return sendAnswer(reply, await receiver.handle(input));
 */
export function sendAnswer(reply: FastifyReply, answer: ReceiverResponse): FastifyReply {
  if (reply.sent) return reply;
  return reply.code(answer.status).headers(answer.headers).send(answer.body);
}
