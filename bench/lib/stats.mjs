/** Order statistics over a list of numbers (nearest-rank percentiles). */
export function percentile(values, fraction) {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank];
}

export function median(values) {
  return percentile(values, 0.5);
}
