/**
 * The date widget of the content manager (an article's date and updated): a date and time input
 * that shows and takes the business's wall clock, and saves it without an offset (zonedDate.ts
 * says why). Beside it: which clock it is, and where the editor's computer is elsewhere, what that
 * moment is there, so nobody mistakes one clock for the other.
 */
import type { ComponentType } from 'react';
import { parseZoned } from '../../contracts/zonedTime.js';
import { browserTimeZone, momentText, storedValueOf, wallTimeNow, wallTimeOf, zoneName } from './zonedDate.js';

interface ControlProps {
  forID: string;
  value: unknown;
  onChange: (value: string) => void;
  classNameWrapper: string;
  setActiveStyle?: () => void;
  setInactiveStyle?: () => void;
}

const note = { margin: '6px 0 0', fontSize: '13px', color: '#4b5563' } as const;
const nowButton = { marginLeft: '8px', padding: '6px 12px', border: '1px solid #6b7280', borderRadius: '5px', background: '#fff', color: '#111827', cursor: 'pointer', font: 'inherit' } as const;

/** The control for the business's `timeZone`; `localZone`: the zone of the editor's browser (tests give one). */
export function zonedDateTimeControl(timeZone: string, localZone: string = browserTimeZone()): ComponentType<ControlProps> {
  function ZonedDateTimeControl({ forID, value, onChange, classNameWrapper, setActiveStyle, setInactiveStyle }: ControlProps) {
    const wall = wallTimeOf(value, timeZone);
    const parsed = wall ? parseZoned(wall, timeZone) : undefined;
    const elsewhere = parsed && localZone !== timeZone ? momentText(parsed.time, localZone) : undefined;
    return (
      <div>
        <div style={{ display: 'flex', alignItems: 'center' }}>
          <input
            id={forID}
            type="datetime-local"
            step={60}
            className={classNameWrapper}
            value={wall}
            aria-describedby={`${forID}-zone`}
            onChange={(e) => onChange(storedValueOf(e.target.value))}
            onFocus={setActiveStyle}
            onBlur={setInactiveStyle}
          />
          <button type="button" style={nowButton} onClick={() => onChange(wallTimeNow(timeZone))}>Now</button>
        </div>
        <p id={`${forID}-zone`} style={note}>
          {`${zoneName(timeZone)} (${timeZone}), the business's clock, whatever this computer's time zone.`}
          {elsewhere ? ` On this computer's clock (${localZone}) that is ${elsewhere}.` : ''}
        </p>
      </div>
    );
  }
  return ZonedDateTimeControl;
}

/** The value as the preview pane lists it: the business's wall time, as an editor reads it. */
export function zonedDateTimePreview(timeZone: string): ComponentType<{ value?: unknown }> {
  function ZonedDateTimePreview({ value }: { value?: unknown }) {
    const wall = wallTimeOf(value, timeZone);
    const parsed = wall ? parseZoned(wall, timeZone) : undefined;
    return <span>{parsed ? momentText(parsed.time, timeZone) : ''}</span>;
  }
  return ZonedDateTimePreview;
}
