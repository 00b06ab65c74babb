/**
 * The Standard Schema v1 interface (https://standardschema.dev), inlined so that core gains no
 * dependency: Zod, Valibot, ArkType and TypeBox (through its adapter) schemas all satisfy it.
 * Types only, apart from `validateStandard`.
 *
 * @example
 * import { z } from 'zod';
 * const schema: StandardSchemaV1<unknown, { orderId: string }> = z.object({ orderId: z.string() });
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaV1.Props<Input, Output>;
}

/**
 * The Standard Schema's companion types.
 *
 * @example
 * type Order = StandardSchemaV1.InferOutput<typeof orderSchema>;
 */
// eslint-disable-next-line @typescript-eslint/no-namespace -- the Standard Schema spec's own type, copied as published (its namespace is its API)
export declare namespace StandardSchemaV1 {
  export interface Props<Input = unknown, Output = Input> {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => Result<Output> | Promise<Result<Output>>;
    readonly types?: Types<Input, Output> | undefined;
  }
  export type Result<Output> = SuccessResult<Output> | FailureResult;
  export interface SuccessResult<Output> {
    readonly value: Output;
    readonly issues?: undefined;
  }
  export interface FailureResult {
    readonly issues: ReadonlyArray<Issue>;
  }
  export interface Issue {
    readonly message: string;
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }
  export interface PathSegment {
    readonly key: PropertyKey;
  }
  export interface Types<Input = unknown, Output = Input> {
    readonly input: Input;
    readonly output: Output;
  }
  export type InferInput<Schema extends StandardSchemaV1> = NonNullable<Schema['~standard']['types']>['input'];
  export type InferOutput<Schema extends StandardSchemaV1> = NonNullable<Schema['~standard']['types']>['output'];
}

/**
 * One schema issue in the receiver's answer: a JSON path (`/items/0/sku`) and the schema's message.
 *
 * @example
 * const line = (i: SchemaIssue) => `${i.path} ${i.message}`;
 */
export interface SchemaIssue {
  path: string;
  message: string;
}

function pathOf(path: StandardSchemaV1.Issue['path']): string {
  if (!path || path.length === 0) return '/';
  return path
    .map((segment) => {
      const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
      return `/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
    })
    .join('');
}

/**
 * Runs a Standard Schema over a value: `{ value }` (the schema's output) or `{ issues }` with JSON
 * paths. Throws a `TypeError` naming the fix when `schema` is not a Standard Schema.
 *
 * @example
 * const result = await validateStandard(orderSchema, payload);
 * if ('issues' in result) console.log(result.issues.map((i) => `${i.path} ${i.message}`));
 */
export async function validateStandard<S extends StandardSchemaV1>(
  schema: S,
  value: unknown,
): Promise<{ value: StandardSchemaV1.InferOutput<S> } | { issues: SchemaIssue[] }> {
  const result = await schema['~standard'].validate(value);
  if (result.issues) return { issues: result.issues.map((i) => ({ path: pathOf(i.path), message: i.message })) };
  return { value: result.value as StandardSchemaV1.InferOutput<S> };
}

/**
 * Whether a value is a Standard Schema (has a `~standard` object with `version: 1` and `validate`).
 *
 * @example
 * isStandardSchema(z.object({})); // true
 */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  const props = (value as { '~standard'?: { version?: unknown; validate?: unknown } } | null)?.['~standard'];
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof props === 'object' &&
    props !== null &&
    props.version === 1 &&
    typeof props.validate === 'function'
  );
}
