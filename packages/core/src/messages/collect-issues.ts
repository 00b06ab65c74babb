import { compileCheck } from './compile-check.js';
import {
  isObjectLike,
  isRecordLike,
  kindOf,
  type AbsentSchema,
  type FieldSchema,
  type LiteralSchema,
  type ObjectSchema,
  type StringSchema,
} from './schema-parts.js';
import { childPath, type ValidationIssue } from './validation-error.js';

type AnySchema = FieldSchema | Record<string, never>;

/**
 * Runs one of the messages' or calls' JSON Schemas over a value and returns one readable issue per
 * problem, each with its JSON path: missing required fields first, then each field in the schema's
 * order, the first problem per path only (the order and wording TypeBox's errors had).
 */
export function collectIssues(schema: AnySchema, value: unknown, base = '$'): ValidationIssue[] {
  // The compiled check answers valid values fast; the walk below explains the invalid ones.
  if (compileCheck(schema)(value)) return [];
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  const report = (path: string, message: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    issues.push({ path, message });
  };
  walk(schema, value, base, report);
  return issues;
}

function walk(schema: AnySchema, value: unknown, path: string, report: (path: string, message: string) => void) {
  switch (kindOf(schema)) {
    case 'anything':
      return;
    case 'absent':
      return report(path, `must be ${(schema as AbsentSchema).description}`);
    case 'literal': {
      const expected = (schema as LiteralSchema).const;
      if (value !== expected) report(path, `must be ${JSON.stringify(expected)}`);
      return;
    }
    case 'string': {
      const { pattern, description } = schema as StringSchema;
      if (typeof value !== 'string') return report(path, `must be a string (got ${describe(value)})`);
      if (pattern !== undefined && !new RegExp(pattern).test(value))
        report(path, `must be ${description ?? `a string matching ${pattern}`} (got ${JSON.stringify(value)})`);
      return;
    }
    case 'open-object':
      if (!isRecordLike(value)) report(path, `must be an object (got ${describe(value)})`);
      return;
    case 'object': {
      if (!isObjectLike(value)) return report(path, `must be an object (got ${describe(value)})`);
      const { properties, required = [] } = schema as ObjectSchema;
      for (const key of required) if (!Object.hasOwn(value, key)) report(childPath(path, key), 'is required');
      for (const [key, field] of Object.entries(properties)) {
        if (required.includes(key) || value[key] !== undefined) walk(field, value[key], childPath(path, key), report);
      }
      return;
    }
  }
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
