// What a rule's JSON Schema must be beyond draft-07 itself, checked when a plan is read: every `pattern`
// runs on the linear-time engine, every `$ref` points inside the rule, no `enum` past its limit.
import { patternProblem } from './linear-pattern.js';
import type { TrackingPlanLimits } from './plan-limits.js';
import { eachSubschema } from './schema-walk.js';

/**
 * A problem of a rule's schema: where (keys from the schema's root, e.g. `properties.properties.properties.sku.pattern`)
 * and what, with the fix.
 */
export interface RuleSchemaProblem {
  path: string;
  message: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * What a local `$ref` (`#`, `#/definitions/x`, `#/properties/properties`) points at inside `root`, or
 * `undefined` (internal).
 *
 * @example
 * resolveLocal({ definitions: { id: { type: 'string' } } }, '#/definitions/id'); // { type: 'string' }
 */
export function resolveLocal(root: Record<string, unknown>, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    let part: string;
    try {
      part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, part)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

function patternAt(pattern: string, where: string): RuleSchemaProblem | undefined {
  const problem = patternProblem(pattern);
  if (problem === undefined) return undefined;
  return {
    path: where,
    message:
      `pattern ${JSON.stringify(pattern)} uses ${problem}. Tracking-plan patterns run on RE2, in time linear in ` +
      'the value (no backtracking): rewrite it without look-around or back-references.',
  };
}

/**
 * The first problem of a rule's schema that its draft-07 meta-schema does not catch (internal): a
 * `pattern` or `patternProperties` key the linear-time engine cannot run (or, with `patternProperties`
 * false, any `patternProperties`: the runtime-neutral build runs them on no linear engine), a `$ref`
 * that is not local or points at nothing, an `enum` with more values than `limits.maxEnumValues`.
 *
 * @example
 * ruleSchemaProblem({ properties: { id: { type: 'string', pattern: '(?!x)' } } }, limits, true)?.path;
 * // 'properties.id.pattern'
 */
export function ruleSchemaProblem(
  schema: Record<string, unknown>,
  limits: Required<TrackingPlanLimits>,
  patternProperties: boolean,
): RuleSchemaProblem | undefined {
  let found: RuleSchemaProblem | undefined;
  eachSubschema(schema, (node, keys) => {
    if (found) return;
    const at = (keyword: string, ...more: string[]) => [...keys, keyword, ...more].join('.');
    if (typeof node.pattern === 'string') found = patternAt(node.pattern, at('pattern'));
    if (!found && isObject(node.patternProperties)) {
      if (!patternProperties) {
        found = {
          path: at('patternProperties'),
          message:
            'patternProperties run only where the plan is compiled by Ajv (Node, Bun, Deno) or precompiled by ' +
            'hookgate types: pass the module hookgate types writes as trackingPlan, or list the properties.',
        };
      }
      for (const key of Object.keys(node.patternProperties)) {
        found ??= patternAt(key, at('patternProperties', key));
      }
    }
    if (!found && Array.isArray(node.enum) && node.enum.length > limits.maxEnumValues) {
      found = {
        path: at('enum'),
        message:
          `enum has ${node.enum.length} values, over the limit of ${limits.maxEnumValues} (limits.maxEnumValues): ` +
          'shorten the list, or raise the limit with compileTrackingPlan(plan, { limits }).',
      };
    }
    const ref = node.$ref;
    if (!found && ref !== undefined) {
      if (typeof ref !== 'string' || !ref.startsWith('#')) {
        found = {
          path: at('$ref'),
          message: `$ref ${JSON.stringify(ref)} is not local: a rule's $ref must point inside its own jsonSchema ("#/definitions/…"); inline the schema it names.`,
        };
      } else if (!isObject(resolveLocal(schema, ref)) && typeof resolveLocal(schema, ref) !== 'boolean') {
        found = {
          path: at('$ref'),
          message: `$ref ${JSON.stringify(ref)} points at no schema inside this rule's jsonSchema: fix the pointer (e.g. "#/definitions/product").`,
        };
      }
    }
  });
  return found;
}
