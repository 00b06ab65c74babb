// The message and call schemas as TypeBox built them before the checks became plain JSON Schema, and
// the issue list TypeBox's errors gave: the reference the plain schemas and checks are held to
// (compile-check.test.ts). TypeBox is a dev dependency only: nothing shipped imports it.
import { Type, type TSchema, type TString } from '@sinclair/typebox';
import { ValueErrorType } from '@sinclair/typebox/errors';
import { Value } from '@sinclair/typebox/value';
import { describe } from '../../src/messages/collect-issues.js';
import { ISO_8601_TIMESTAMP, UTC_MILLIS_TIMESTAMP } from '../../src/messages/timestamp.js';
import { pointerToPath, type ValidationIssue } from '../../src/messages/validation-error.js';

const IsoTimestamp = Type.String({
  pattern: ISO_8601_TIMESTAMP.source,
  description: 'an ISO 8601 date-time with a zone (the sender emits UTC with milliseconds)',
});
const StrictTimestamp = Type.String({
  pattern: UTC_MILLIS_TIMESTAMP.source,
  description: 'an ISO 8601 date-time in UTC with milliseconds, like 2026-01-31T23:59:59.123Z',
});
const Str = Type.String();
const AnyObject = Type.Record(Type.String(), Type.Unknown());

const ContextSchema = Type.Object(
  {
    device: Type.Optional(Type.Object({ model: Type.Optional(Str), type: Type.Optional(Str) })),
    os: Type.Optional(Type.Object({ name: Type.Optional(Str), version: Type.Optional(Str) })),
    app: Type.Optional(
      Type.Object({ build: Type.Optional(Str), name: Type.Optional(Str), version: Type.Optional(Str) }),
    ),
  },
  { description: 'Device, IP and similar information. Only the screen shape is given by the service.' },
);

const PagePropertiesSchema = Type.Object({
  path: Type.Optional(Str),
  referrer: Type.Optional(Str),
  title: Type.Optional(Str),
  url: Type.Optional(Str),
});

function buildMessageSchemas<T extends TString>(timestamp: T) {
  const common = {
    version: Type.Literal(1),
    userId: Str,
    timestamp,
    context: Type.Optional(ContextSchema),
  };
  const obj = <P extends Record<string, TSchema>>(id: string, props: P) =>
    Type.Object(props, { $id: `https://hookgate.dev/schemas/${id}.json`, title: id });
  return {
    page: obj('page', { ...common, type: Type.Literal('page'), properties: Type.Optional(PagePropertiesSchema) }),
    screen: obj('screen', { ...common, type: Type.Literal('screen'), name: Str }),
    identify: obj('identify', { ...common, type: Type.Literal('identify'), traits: Type.Optional(AnyObject) }),
    track: obj('track', { ...common, type: Type.Literal('track'), event: Str, properties: Type.Optional(AnyObject) }),
    alias: obj('alias', {
      version: Type.Literal(1),
      type: Type.Literal('alias'),
      timestamp,
      context: Type.Optional(ContextSchema),
      'Previous ID': Str,
      'User ID': Str,
      // No userId on alias: in the schema itself, so the types, the validator and the
      // exported JSON Schema (`"not": {}`) all say so.
      userId: Type.Optional(Type.Never({ description: 'absent on alias: the new id is in "User ID"' })),
    }),
    group: obj('group', {
      ...common,
      type: Type.Literal('group'),
      groupId: Str,
      traits: Type.Optional(AnyObject),
    }),
    delete: obj('delete', { type: Type.Literal('delete'), userId: Str, timestamp }),
  } as const;
}

export const referenceMessageSchemas = buildMessageSchemas(IsoTimestamp);

export const referenceStrictMessageSchemas = buildMessageSchemas(StrictTimestamp);

const callCommon = {
  userId: Type.Optional(Str),
  anonymousId: Type.Optional(Str),
  messageId: Type.Optional(Str),
  timestamp: Type.Optional(IsoTimestamp),
  context: Type.Optional(AnyObject),
  integrations: Type.Optional(AnyObject),
};

const callObj = <P extends Record<string, TSchema>>(type: string, props: P) =>
  Type.Object(props, { $id: `https://hookgate.dev/schemas/call-${type}.json`, title: `${type} call` });

export const referenceCallSchemas = {
  identify: callObj('identify', {
    ...callCommon,
    type: Type.Optional(Type.Literal('identify')),
    traits: Type.Optional(AnyObject),
  }),
  track: callObj('track', {
    ...callCommon,
    type: Type.Optional(Type.Literal('track')),
    event: Str,
    properties: Type.Optional(AnyObject),
  }),
  page: callObj('page', {
    ...callCommon,
    type: Type.Optional(Type.Literal('page')),
    name: Type.Optional(Str),
    category: Type.Optional(Str),
    properties: Type.Optional(AnyObject),
  }),
  screen: callObj('screen', {
    ...callCommon,
    type: Type.Optional(Type.Literal('screen')),
    name: Type.Optional(Str),
    category: Type.Optional(Str),
    properties: Type.Optional(AnyObject),
  }),
  group: callObj('group', {
    ...callCommon,
    type: Type.Optional(Type.Literal('group')),
    groupId: Str,
    traits: Type.Optional(AnyObject),
  }),
  alias: callObj('alias', { ...callCommon, type: Type.Optional(Type.Literal('alias')), previousId: Str }),
} as const;

/** The issues TypeBox's errors gave (main's collectIssues before the plain schemas). */
export function referenceIssues(schema: TSchema, value: unknown, base = '$'): ValidationIssue[] {
  if (Value.Check(schema, value)) return [];
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const error of Value.Errors(schema, value)) {
    let path = pointerToPath(error.path);
    if (base !== '$') path = base + path.slice(1);
    let message = error.message;
    if (error.type === ValueErrorType.ObjectRequiredProperty) message = 'is required';
    else if (error.type === ValueErrorType.Literal) message = `must be ${JSON.stringify(error.schema.const)}`;
    else if (error.type === ValueErrorType.StringPattern && error.schema.description)
      message = `must be ${error.schema.description} (got ${JSON.stringify(error.value)})`;
    else if (error.type === ValueErrorType.String) message = `must be a string (got ${describe(error.value)})`;
    else if (error.type === ValueErrorType.Object) message = `must be an object (got ${describe(error.value)})`;
    else if (error.type === ValueErrorType.Never) message = `must be ${error.schema.description ?? 'absent'}`;
    // A required property that is missing also reports "expected string" for the same path.
    const key = `${path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push({ path, message });
  }
  return issues;
}
