import type { ReceiverResponse } from '@hookgate/core';
import { answerHeaders } from '@hookgate/core/adapter';
import type { FastifyReply } from 'fastify';

/**
 * Sends a receiver's answer (status, headers, JSON text) through a Fastify reply, unless one was sent.
 *
 * @example
 * return sendAnswer(reply, await receiver.handle(input));
 */
export function sendAnswer(reply: FastifyReply, answer: ReceiverResponse): FastifyReply {
  if (reply.sent) return reply;
  // With the body's length given, Fastify does not count it again.
  return reply.code(answer.status).headers(answerHeaders(answer)).send(answer.body);
}
