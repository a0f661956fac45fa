/**
 * A select for a value that is one of a few JSON values, e.g. a checklist cell (true, false or
 * "N/A"): Decap's own select widget only stores strings and numbers.
 */
interface Option { label: string; value: unknown }
interface ImmutableLike { toJS(): unknown }
interface ControlProps {
  forID: string;
  value: unknown;
  onChange: (value: unknown) => void;
  classNameWrapper: string;
  field: { get(key: string): ImmutableLike | undefined };
}

const optionsOf = (field: ControlProps['field']) => (field.get('options')?.toJS() ?? []) as Option[];

export function ChoiceControl({ forID, value, onChange, classNameWrapper, field }: ControlProps) {
  const options = optionsOf(field);
  const current = options.findIndex((o) => o.value === value);
  return (
    <select id={forID} className={classNameWrapper} value={current < 0 ? '' : String(current)} onChange={(e) => onChange(options[Number(e.target.value)]?.value)}>
      <option value="" disabled>Choose…</option>
      {options.map((o, i) => <option key={i} value={String(i)}>{o.label}</option>)}
    </select>
  );
}

export function ChoicePreview({ value }: { value: unknown }) {
  return <span>{String(value ?? '')}</span>;
}
