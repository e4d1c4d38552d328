/** Softmax, shared by the learners and the seam. */

/** Plain softmax over logits. The model's sampling temperature is already part of its logits, so none is applied here. */
export function softmax(logits: readonly number[]): number[] {
  if (logits.length === 0) return [];
  const max = Math.max(...logits);
  const exps = logits.map((z) => Math.exp(z - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}
