/**
 * Whether `text` has `n` ASCII digits in a row (with `alsoPoints`, digits and `.` mixed, so that
 * `1234567890.123456` counts its 16 digits). Looks at every `n`-th character only: a run of `n`
 * covers one of them, so a character outside the run there rules out every run through it (a 30 KB
 * body is read in about 2,000 steps; a regular expression tries every position). A cheap first look
 * before anything walks a body for long numbers.
 *
 * @example
 * hasDigitRun('{"id":12345678901234567890}', 16); // true
 * hasDigitRun('{"price":12.5}', 16); // false
 * hasDigitRun('{"x":1234567890.123456}', 16, true); // true
 */
export function hasDigitRun(text: string, n: number, alsoPoints = false): boolean {
  const inRun = alsoPoints ? isDigitOrPoint : isDigit;
  for (let i = n - 1; i < text.length; i += n) {
    if (!inRun(text.charCodeAt(i))) continue;
    let start = i;
    while (start > 0 && inRun(text.charCodeAt(start - 1))) start--;
    let end = i + 1;
    while (end < text.length && inRun(text.charCodeAt(end))) end++;
    if (end - start >= n) return true;
    i = end; // text[end] is outside any run: the next one starts after it, and covers end + n or a later look
  }
  return false;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isDigitOrPoint(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 46;
}
