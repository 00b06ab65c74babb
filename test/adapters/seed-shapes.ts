// The seed's §2.2 table, written out independently of core's schemas, to check what the table sends.
import type { WebhookMessage } from '@hookgate/core';

const UTC_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Every way `message` departs from the seed's shape of its type (empty when it has the shape). */
export function seedShapeProblems(message: WebhookMessage): string[] {
  const m = message as Record<string, unknown>;
  const problems: string[] = [];
  const isString = (k: string) => typeof m[k] === 'string' || problems.push(`${k} must be a string`);
  const isObject = (k: string) =>
    (typeof m[k] === 'object' && m[k] !== null && !Array.isArray(m[k])) || problems.push(`${k} must be an object`);
  if (typeof m.timestamp !== 'string' || !UTC_MILLIS.test(m.timestamp))
    problems.push('timestamp must be ISO 8601 UTC with milliseconds');
  if (m.type === 'delete') {
    const keys = Object.keys(m).sort().join(',');
    if (keys !== 'timestamp,type,userId') problems.push(`delete carries type, userId, timestamp only (got ${keys})`);
    isString('userId');
    return problems;
  }
  if (m.version !== 1) problems.push('version must be 1');
  if (m.type === 'alias') {
    isString('Previous ID');
    isString('User ID');
    if ('userId' in m) problems.push('alias has no userId');
    return problems;
  }
  isString('userId');
  if (m.type === 'page' && 'properties' in m) isObject('properties');
  if (m.type === 'screen') isString('name');
  if (m.type === 'identify' && 'traits' in m) isObject('traits');
  if (m.type === 'track') {
    isString('event');
    if ('properties' in m) isObject('properties');
  }
  if (m.type === 'group') {
    isString('groupId');
    if ('traits' in m) isObject('traits');
  }
  if (!['page', 'screen', 'identify', 'track', 'group'].includes(m.type as string))
    problems.push(`unknown type ${String(m.type)}`);
  return problems;
}
