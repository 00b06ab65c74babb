// Turns the event AWS Lambda hands a function (behind a function URL, or API Gateway's REST API
// (payload v1) or HTTP API (payload v2)) into the receiver's input, and its answer back into the
// result Lambda expects. Lambda gives the body as a string, base64-encoded when the service chose to
// (always for a function URL with a binary body, and whenever API Gateway treats the type as binary).
import type { ReceiverInput, ReceiverResponse } from '@hookgate/core';

/** The fields of an API Gateway v1 (REST API) proxy event this receiver reads. */
export interface ApiGatewayV1Event {
  httpMethod: string;
  headers: Record<string, string | undefined> | null;
  multiValueHeaders?: Record<string, string[] | undefined> | null;
  body: string | null;
  isBase64Encoded: boolean;
}

/** The fields of a payload v2 event (API Gateway HTTP API, Lambda function URL) this receiver reads. */
export interface ApiGatewayV2Event {
  version: '2.0';
  requestContext: { http: { method: string } };
  headers?: Record<string, string | undefined>;
  body?: string;
  isBase64Encoded: boolean;
}

/** What a proxy integration or a function URL expects back. */
export interface LambdaResult {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The receiver's input for one Lambda event, v1 or v2, base64 or not: the exact bytes that arrived.
 *
 * @example
 * const answer = await receiver.handle(lambdaRequest(event));
 */
export function lambdaRequest(event: ApiGatewayV1Event | ApiGatewayV2Event): ReceiverInput {
  const method = 'httpMethod' in event ? event.httpMethod : event.requestContext.http.method;
  // v1 keeps repeated headers apart in multiValueHeaders: hand them on as arrays, so a doubled
  // X-Signature is refused rather than half-read. (v2 joins them with commas, which no hex
  // signature matches either.)
  const headers: Record<string, string | string[] | undefined> = { ...(event.headers ?? {}) };
  if ('multiValueHeaders' in event && event.multiValueHeaders) {
    for (const [name, values] of Object.entries(event.multiValueHeaders)) {
      if (values && values.length > 1) headers[name] = values;
    }
  }
  const body = event.body ?? '';
  const rawBody = event.isBase64Encoded ? new Uint8Array(Buffer.from(body, 'base64')) : body;
  return { method, headers, rawBody };
}

/**
 * The Lambda result for one of the receiver's answers.
 *
 * @example
 * return lambdaResult(await receiver.handle(lambdaRequest(event)));
 */
export function lambdaResult(answer: ReceiverResponse): LambdaResult {
  return { statusCode: answer.status, headers: answer.headers, body: answer.body };
}
