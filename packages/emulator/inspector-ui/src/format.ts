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
