// A list's filters live in the page's address (`?state=failed&q=u1`), so a reload or a shared link
// keeps them; the selected item stays in the hash (`#/deliveries/dlv_3`).

/** The filters in the address now. */
export function filtersFromUrl(): URLSearchParams {
  return new URLSearchParams(location.search);
}

/** Writes `filters` into the address without a navigation (empty values left out, the hash kept). */
export function writeFiltersToUrl(filters: Record<string, string>): void {
  const p = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) p.set(name, value);
  const query = p.toString();
  history.replaceState(history.state, '', `${location.pathname}${query ? `?${query}` : ''}${location.hash}`);
}
