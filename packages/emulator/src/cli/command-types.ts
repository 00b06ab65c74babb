import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { TrackingPlanError } from '@hookgate/plans';
import { parseTrackingPlanText, rulesOf } from '@hookgate/plans/internal';
import { parseCommandArgs } from './parse-command-args.js';
import { EXIT, UsageError } from './usage-error.js';

/** Usage of `hookgate types`. */
export const TYPES_HELP = `Usage: hookgate types --plan plan.json --out src/tracking-plan.ts

Writes a TypeScript module from a Segment tracking plan: a type per event (from each rule's JSON
Schema, of the version checked by default: the oldest), and the export trackingPlan. Pass it as a
receiver's trackingPlan:
on.track then takes a handler per event name ('*' for the rest), each with msg.properties typed
from the plan, and a handler for an event the plan does not have does not compile.

The plan is Segment's rules as its Public API returns them ({ "rules": [...] }, also inside "data"),
a bare array of rules, or Terraform's rules (json_schema). Run it again when the plan changes.

Options:
  --plan FILE   the tracking plan's JSON
  --out FILE    the module to write (its folders are made)
  -h, --help    this help

Examples:
  curl -s -H "Authorization: Bearer $SEGMENT_TOKEN" \\
    https://api.segmentapis.com/tracking-plans/$PLAN_ID/rules > plan.json
  hookgate types --plan plan.json --out src/tracking-plan.ts
`;

/**
 * `hookgate types --plan plan.json --out src/tracking-plan.ts`: writes the typed tracking plan module.
 *
 * @example
 * process.exitCode = await runTypes(['--plan', 'plan.json', '--out', 'src/tracking-plan.ts']);
 */
export async function runTypes(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs('types', argv, { plan: { type: 'string' }, out: { type: 'string' } }, false);
  if (values.help) {
    process.stdout.write(TYPES_HELP);
    return EXIT.ok;
  }
  if (values.plan === undefined) throw new UsageError('types', '--plan is required: the tracking plan JSON file.');
  if (values.out === undefined) throw new UsageError('types', '--out is required: the .ts module to write.');
  let text: string;
  try {
    text = await readFile(values.plan, 'utf8');
  } catch (error) {
    throw new UsageError('types', `cannot read --plan ${values.plan}: ${(error as Error).message}`);
  }
  let module: string;
  try {
    const file = parseTrackingPlanText(text);
    const count = rulesOf(file).length;
    // Not silent for long: the generators take about 20 ms a rule.
    if (count > 200) process.stderr.write(`hookgate types: ${count} rules, about ${Math.ceil(count / 50)} s…\n`);
    // Loaded here: the generators (json-schema-to-typescript, Ajv, esbuild) are for this command only.
    const { planModule } = await import('../protocols/plan-module.js');
    module = await planModule(file, { source: values.plan });
  } catch (error) {
    if (error instanceof TrackingPlanError) throw new UsageError('types', `${values.plan}: ${error.message}`);
    throw error;
  }
  await mkdir(dirname(values.out), { recursive: true });
  await writeFile(values.out, module);
  process.stdout.write(`wrote ${values.out}\n`);
  return EXIT.ok;
}
