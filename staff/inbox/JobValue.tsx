/** What a booked job is worth, typed with the status change (optional; the report sums it). */

/** The most a job may be worth (the database's job_value domain). */
export const MAX_JOB_VALUE = 1_000_000;

/** "1,250.50" or "$450" → 1250.5; empty or not a value in range → null. */
export function parseJobValue(text: string): number | null {
  const cleaned = text.replace(/[$,\s]/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) return null;
  const value = Number(cleaned);
  return value <= MAX_JOB_VALUE ? value : null;
}

export function JobValueInput({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const invalid = value.trim() !== '' && parseJobValue(value) === null;
  return (
    <>
      <label htmlFor="job-value">Job value in dollars (optional, saved with the change)</label>
      <input id="job-value" inputMode="decimal" value={value} maxLength={14} aria-invalid={invalid} aria-describedby={invalid ? 'job-value-error' : undefined}
        onChange={(e) => onChange(e.target.value)} />
      {invalid && <p id="job-value-error" className="form-error">A value like 250 or 1,250.50, up to $1,000,000.</p>}
    </>
  );
}
