// Keyboard walking of a list: j / ArrowDown to the next row, k / ArrowUp to the previous one (the
// focus goes to the row's link, so Enter opens it), Escape closes what is open and returns to its row.

export interface ListKeys {
  /** The element holding the rows (`[data-id]`, each with one link `a.event-link`). */
  rows: HTMLElement;
  /** Whether the list is on screen (a hidden view's keys do nothing). */
  active(): boolean;
  /** The id of the open item, if any. */
  openId(): string | undefined;
  /** Closes the open item. */
  close(): void;
}

function typing(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName))
  );
}

function linkOf(row: Element | undefined | null): HTMLElement | null {
  return row?.querySelector<HTMLElement>('a.event-link') ?? null;
}

/** Installs the keys on the document; returns a function that removes them. */
export function installListKeys(list: ListKeys): () => void {
  const onKey = (event: KeyboardEvent): void => {
    if (!list.active() || event.altKey || event.ctrlKey || event.metaKey || typing(event.target)) return;
    const rows = [...list.rows.querySelectorAll<HTMLElement>(':scope > [data-id]')];
    if (event.key === 'Escape') {
      const id = list.openId();
      if (id === undefined) return;
      event.preventDefault();
      list.close();
      linkOf(rows.find((r) => r.dataset.id === id))?.focus();
      return;
    }
    const down = event.key === 'j' || event.key === 'ArrowDown';
    const up = event.key === 'k' || event.key === 'ArrowUp';
    if (!down && !up) return;
    // Arrows scroll a focused text block (body, curl) as usual; j and k work anywhere but in a field.
    const active = document.activeElement;
    const inList = active instanceof Element && list.rows.contains(active);
    if (event.key.startsWith('Arrow') && !inList && active !== document.body && active !== null) return;
    if (rows.length === 0) return;
    const current = inList
      ? rows.findIndex((r) => r.contains(active))
      : rows.findIndex((r) => r.dataset.id === list.openId());
    const next =
      current < 0 ? (down ? 0 : rows.length - 1) : Math.max(0, Math.min(rows.length - 1, current + (down ? 1 : -1)));
    event.preventDefault();
    const link = linkOf(rows[next]);
    link?.focus();
    link?.scrollIntoView({ block: 'nearest' });
  };
  document.addEventListener('keydown', onKey);
  return () => document.removeEventListener('keydown', onKey);
}
