// How a plan given as JSON has its rules compiled, in the runtime-neutral build (Workers, browsers, and
// the TypeScript sources): `@cfworker/json-schema`'s interpreter, no code generation, because Cloudflare
// Workers forbid code generation from strings. The Node build (dist/node.js) swaps in
// schema-compiler.node.ts, which compiles each rule with Ajv (tsup.config.ts).
import { interpretedCheck, type SchemaCheck } from './json-schema-validator.js';

/**
 * A compiler of rule schemas for one plan (internal): takes a rule's JSON Schema (draft-07, already checked
 * against the meta-schema) and returns its check, run once per message.
 *
 * @example
 * const compile = schemaCompiler();
 * const check = compile({ type: 'object', required: ['event'] });
 */
export function schemaCompiler(): (schema: Record<string, unknown>) => SchemaCheck {
  return interpretedCheck;
}
