// Times and durations as the page shows them (always the emulator's clock, in UTC).

export function shortTime(iso: string | undefined): string {
  if (!iso) return '';
  return iso.slice(11, 23);
}

export function fullTime(iso: string | undefined): string {
  return iso ? iso.replace('T', ' ').replace('Z', ' UTC') : '';
}

export function duration(ms: number): string {
  const neg = ms < 0;
  let left = Math.abs(ms);
  if (left < 1000) return `${neg ? '-' : ''}${Math.round(left)} ms`;
  const h = Math.floor(left / 3_600_000);
  left -= h * 3_600_000;
  const m = Math.floor(left / 60_000);
  left -= m * 60_000;
  const s = Math.round(left / 1000);
  const parts = [h ? `${h} h` : '', m ? `${m} min` : '', s || (!h && !m) ? `${s} s` : ''].filter(Boolean);
  return `${neg ? '-' : ''}${parts.join(' ')}`;
}

export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/**
 * How many integers beyond 2^53 − 1 a JSON text holds (JSON.parse, and so the pretty view and most
 * receivers, change them to the nearest double), or 0; 0 for text that is not JSON.
 */
export function bigIntegerCount(text: string): number {
  if (!/\d{16}/.test(text)) return 0; // 2^53 has 16 digits
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 0;
  }
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'number') {
      if (Number.isInteger(v) && !Number.isSafeInteger(v)) count++;
    } else if (typeof v === 'object' && v !== null) {
      for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push(child);
    }
  }
  return count;
}
