// The runtime-neutral build's interpreter (@cfworker/json-schema) runs `pattern` with JavaScript's own,
// backtracking, engine. So before a rule is prepared for it, each `pattern` is moved to a `format` of
// its own registered with the interpreter, which runs the pattern on the linear-time engine instead; the
// interpreter's verdict for that format is worded back as the pattern's (json-schema-validator.ts).
import { format } from '@cfworker/json-schema';
import { linearRegExp } from './linear-pattern.js';
import { eachSubschema } from './schema-walk.js';

/** The prefix of the formats that stand for patterns. */
export const PATTERN_FORMAT = 'hookgate-linear-pattern:';

/**
 * A copy of a rule's schema in which every `pattern` runs on the linear-time engine under the
 * interpreter (internal): `{ pattern: P }` becomes `{ allOf: [{ format: 'hookgate-linear-pattern:P' }] }`.
 *
 * @example
 * const schema = withLinearPatterns({ type: 'string', pattern: '^(a+)+$' });
 */
export function withLinearPatterns(schema: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(schema);
  eachSubschema(copy, (node) => {
    const pattern = node.pattern;
    if (typeof pattern !== 'string') return;
    const name = `${PATTERN_FORMAT}${pattern}`;
    if (!Object.hasOwn(format, name)) {
      const compiled = linearRegExp(pattern);
      (format as Record<string, (value: string) => boolean>)[name] = (value) => compiled.test(value);
    }
    delete node.pattern;
    node.allOf = [...(Array.isArray(node.allOf) ? node.allOf : []), { format: name }];
  });
  return copy;
}
