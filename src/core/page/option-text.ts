/**
 * Which option of a list a value names. Lists often write a value with
 * underscores or hyphens where a person writes spaces ("Code_Defect" for "code
 * defect", "not-a-bug"): the same text to anyone reading it. An option is named
 * only when its whole text equals the value under that reading (case,
 * underscores, hyphens and runs of spaces aside), never by a part of it: "Code"
 * does not name "Code_Defect", and no option is made up. Several equal options
 * name none (which one is not known).
 */

/** The text as a person reads it: lower case, underscores and hyphens as spaces, spaces collapsed. */
export function optionText(text: string): string {
  return text.replace(/[_\-\s]+/g, ' ').trim().toLowerCase();
}

/** Whether two texts are the same option text (`optionText`). An empty text equals nothing. */
export function sameOptionText(a: string, b: string): boolean {
  const x = optionText(a);
  return x !== '' && x === optionText(b);
}

/** The one option whose whole text is `value` (`sameOptionText`); null for none or several. */
export function optionNamed(options: readonly string[], value: string): string | null {
  const equal = options.filter((o) => sameOptionText(o, value));
  return equal.length === 1 ? equal[0]! : null;
}
