/**
 * Decap's object widget, except that an optional group left blank is not checked: Decap checks
 * the required fields inside an optional group even when nothing is in it, so a city without a
 * page of its own (a card on /locations only) could be neither created nor edited. Once anything
 * is typed into the group, all of it is checked, as the model says. What is saved is checked in
 * full anyway (cms/app/check.ts).
 */
import type { ComponentType } from 'react';
import { pruneEmpty } from './format.js';

interface ObjectControlProps {
  field: { get(key: 'required', fallback: boolean): boolean };
  value?: { toJS?(): unknown } | null;
}
interface ObjectControlInstance { props: ObjectControlProps; validate: () => void }
export interface WidgetDefinition { control: ComponentType<never>; preview?: ComponentType<never>; schema?: object }

const isBlank = (value: ObjectControlProps['value']) => value == null || pruneEmpty(value.toJS?.() ?? value, true) === undefined;

export function optionalObjectControl(base: WidgetDefinition): ComponentType<never> {
  const Base = base.control as unknown as new (props: ObjectControlProps) => ObjectControlInstance;
  class OptionalObjectControl extends Base {
    constructor(props: ObjectControlProps) {
      super(props);
      // Decap's validate is an instance property: wrap it here, not on the prototype.
      const validateAll = this.validate;
      this.validate = () => {
        if (this.props.field.get('required', true) === false && isBlank(this.props.value)) return;
        validateAll();
      };
    }
  }
  return OptionalObjectControl as unknown as ComponentType<never>;
}
