// The seed's §2.2 tables, written out by hand from the spec (not from core's schemas or fixtures),
// so the tests compare core against the seed rather than against itself.

/** The seven delivered types, in the order §2.2 lists them. */
export const SEED_TYPES = ['page', 'screen', 'identify', 'track', 'alias', 'group', 'delete'] as const;
export type SeedType = (typeof SEED_TYPES)[number];

/** Kinds used below: the JSON type each field has in §2.2. */
export type SeedKind = 'string' | 'number' | 'object';

/**
 * Every field §2.2 names per type, with its JSON kind:
 * common fields (version on all but delete, userId on all but alias, type, timestamp) and the
 * "Additional fields" row of each type. Delete has "type, userId, timestamp only".
 */
export const SEED_FIELDS: Record<SeedType, Record<string, SeedKind>> = {
  page: { version: 'number', type: 'string', userId: 'string', timestamp: 'string', properties: 'object' },
  screen: {
    version: 'number',
    type: 'string',
    userId: 'string',
    timestamp: 'string',
    name: 'string',
    context: 'object',
  },
  identify: { version: 'number', type: 'string', userId: 'string', timestamp: 'string', traits: 'object' },
  track: {
    version: 'number',
    type: 'string',
    userId: 'string',
    timestamp: 'string',
    event: 'string',
    properties: 'object',
  },
  alias: { version: 'number', type: 'string', timestamp: 'string', 'Previous ID': 'string', 'User ID': 'string' },
  group: {
    version: 'number',
    type: 'string',
    userId: 'string',
    timestamp: 'string',
    groupId: 'string',
    traits: 'object',
  },
  delete: { type: 'string', userId: 'string', timestamp: 'string' },
};

/**
 * The fields a valid message must carry. The seed marks the common fields as present on each type
 * and names the identifiers (event, name, groupId, the alias keys); the payload objects
 * (properties, traits, context) are kept optional: refusing a message answers 4xx and the sender
 * drops it for good (decision recorded in packages/core/README.md).
 */
export const SEED_REQUIRED: Record<SeedType, string[]> = {
  page: ['version', 'type', 'userId', 'timestamp'],
  screen: ['version', 'type', 'userId', 'timestamp', 'name'],
  identify: ['version', 'type', 'userId', 'timestamp'],
  track: ['version', 'type', 'userId', 'timestamp', 'event'],
  alias: ['version', 'type', 'timestamp', 'Previous ID', 'User ID'],
  group: ['version', 'type', 'userId', 'timestamp', 'groupId'],
  delete: ['type', 'userId', 'timestamp'],
};

/** The recognized page property keys (§2.2: path, referrer, title, url, all strings). */
export const SEED_PAGE_PROPERTIES = ['path', 'referrer', 'title', 'url'];

/** The screen context shape (§2.2: device {model, type}, os {name, version}, app {build, name, version}). */
export const SEED_SCREEN_CONTEXT: Record<string, string[]> = {
  device: ['model', 'type'],
  os: ['name', 'version'],
  app: ['build', 'name', 'version'],
};

/** ISO 8601 in UTC with milliseconds, as §2.2 describes `timestamp`. */
export const SEED_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A JSON path for a key, as core writes them: `$.name`, or `$["Previous ID"]` for keys that are not identifiers. */
export function pathOf(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `$.${key}` : `$[${JSON.stringify(key)}]`;
}

/** The JSON kind of a value, in the seed's words. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
