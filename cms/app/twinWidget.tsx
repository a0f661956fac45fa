/**
 * The first field of a translated city or service (cms/config.ts, twinField): the English original
 * it translates, chosen among the English collection's entries with Decap's relation widget. Its
 * value is the new file's name (the collection's identifier), so it is required while the entry is
 * new; Decap cannot rename a saved entry, so an entry already saved shows which English file it
 * translates instead of a choice, and counts as filled in (its file name is its value: Decap asks
 * getValidateValue before it says a required field is missing). Never written into the file
 * (cms/app/format.ts).
 */
import type { ComponentType, ReactNode } from 'react';
import type { WidgetDefinition } from './optionalObject.js';
import { englishTwinOf } from './translations.js';

interface ImmutableMapLike { get(key: string): unknown }
interface TwinControlProps {
  entry?: ImmutableMapLike;
  field: ImmutableMapLike;
  value?: unknown;
  classNameWrapper?: string;
  forID?: string;
}
interface RelationControlInstance { props: TwinControlProps; render(): ReactNode }

/** Whether the entry being edited has no file yet. */
export const isNewEntry = (entry: ImmutableMapLike | undefined) => entry?.get('newRecord') === true;

/** The text shown for a saved translation: the English file it is the twin of. */
export function savedTwinText(entry: ImmutableMapLike | undefined): string {
  const path = entry?.get('path');
  const english = typeof path === 'string' ? englishTwinOf(path) : undefined;
  return english ? `Translates ${english}.` : 'Translates the English file of the same name.';
}

/** What Decap's required check sees: the English original chosen, or, for a saved entry, its file name. */
export function twinValidateValue(entry: ImmutableMapLike | undefined, value: unknown): unknown {
  if (isNewEntry(entry)) return value;
  const slug = entry?.get('slug');
  return typeof slug === 'string' && slug ? slug : 'saved';
}

export function twinControl(relation: WidgetDefinition): ComponentType<never> {
  const Base = relation.control as unknown as new (props: TwinControlProps) => RelationControlInstance;
  class TwinControl extends Base {
    getValidateValue(): unknown {
      return twinValidateValue(this.props.entry, this.props.value);
    }

    override render(): ReactNode {
      if (isNewEntry(this.props.entry)) return super.render();
      return <p id={this.props.forID} className={this.props.classNameWrapper}>{savedTwinText(this.props.entry)}</p>;
    }
  }
  return TwinControl as unknown as ComponentType<never>;
}
