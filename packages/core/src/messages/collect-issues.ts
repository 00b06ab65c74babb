import type { TSchema } from '@sinclair/typebox';
import { ValueErrorType } from '@sinclair/typebox/errors';
import { Value } from '@sinclair/typebox/value';
import { compileCheck } from './compile-check.js';
import { childPath, pointerToPath, type ValidationIssue } from './validation-error.js';

/**
 * Runs a TypeBox schema over a value (interpreted, no `eval`, so it runs on Workers) and returns
 * one readable issue per problem, each with its JSON path.
 */
export function collectIssues(schema: TSchema, value: unknown, base = '$'): ValidationIssue[] {
  // The compiled check answers valid values fast; TypeBox explains the invalid ones.
  if (compileCheck(schema)(value)) return [];
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

/** Names a value's JSON kind for an error message. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === undefined) return 'nothing';
  switch (typeof value) {
    case 'object':
      return 'an object';
    case 'string':
      return `string ${JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)}`;
    case 'number':
    case 'boolean':
      return `${typeof value} ${String(value)}`;
    default:
      // bigint, symbol, function: JSON.stringify would throw or say nothing.
      return `a ${typeof value}`;
  }
}

export { childPath };
