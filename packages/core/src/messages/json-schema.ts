import { MESSAGE_TYPES, messageSchemas, type MessageType } from './schemas.js';

/**
 * A plain JSON Schema document (draft 2020-12 compatible).
 *
 * @example
 * const schema: JsonSchema = messageJsonSchemas.track;
 * console.log(schema.title); // 'track'
 */
export type JsonSchema = Record<string, unknown>;

function plain(schema: object): JsonSchema {
  // A deep copy: the exported documents are the caller's to change, the checks' own stay as they are.
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', ...JSON.parse(JSON.stringify(schema)) };
}

/**
 * The JSON Schema of each message type, as plain JSON (for other languages, docs, or contract tests).
 *
 * @example
 * import { messageJsonSchemas } from '@hookgate/core';
 * fs.writeFileSync('track.schema.json', JSON.stringify(messageJsonSchemas.track, null, 2));
 */
export const messageJsonSchemas: Readonly<Record<MessageType, JsonSchema>> = Object.freeze(
  Object.fromEntries(MESSAGE_TYPES.map((t) => [t, plain(messageSchemas[t])])) as Record<MessageType, JsonSchema>,
);

/**
 * One JSON Schema for any webhook message: a `oneOf` discriminated on `type`.
 *
 * @example
 * const schema = webhookMessageJsonSchema(); // feed to Ajv, a docs generator, ...
 */
export function webhookMessageJsonSchema(): JsonSchema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://hookgate.dev/schemas/webhook-message.json',
    title: 'WebhookMessage',
    oneOf: MESSAGE_TYPES.map((t) => {
      const { $schema: _ignored, ...rest } = messageJsonSchemas[t];
      return rest;
    }),
    discriminator: { propertyName: 'type' },
  };
}
