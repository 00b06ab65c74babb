// A webhook receiver as an AWS Lambda function, behind a function URL or API Gateway (REST or HTTP
// API): core's runtime-neutral receiver, and lambda-request.ts to read the event.
// WEBHOOK_SECRET must be set in the function's environment (or a secret manager).
//
// Lambda freezes the function once the handler returns, so work must finish before the answer:
// the default mode (handle, then answer, within the 4 s deadline) or a durable queue
// (@hookgate/bullmq's enqueueTo, or SQS). Never `acknowledge: true` here.
import { createReceiver, type WebhookMessage } from '@hookgate/core';
import {
  lambdaRequest,
  lambdaResult,
  type ApiGatewayV1Event,
  type ApiGatewayV2Event,
  type LambdaResult,
} from './lambda-request.js';

/** The messages this (warm) function handled; a real handler writes them somewhere durable. */
export const seen: WebhookMessage[] = [];

const receiver = createReceiver({
  secret: process.env.WEBHOOK_SECRET!,
  on: {
    track: (msg) => void seen.push(msg),
  },
  onMessage: (msg) => void seen.push(msg),
});

/**
 * The function's entry point (`handler.handler` in the function's settings).
 *
 * @example
 * const result = await handler({ version: '2.0', requestContext: { http: { method: 'POST' } }, headers, body, isBase64Encoded: false });
 */
export async function handler(event: ApiGatewayV1Event | ApiGatewayV2Event): Promise<LambdaResult> {
  return lambdaResult(await receiver.handle(lambdaRequest(event)));
}
