/**
 * Icons for the server-rendered pages. Each lucide icon is drawn by React once per distinct set of
 * props and the finished <svg> is reused: drawing icons took a tenth of a page's render time, and
 * a 10,000-page site draws the same few dozen icons 300,000 times. The markup is lucide's own, to
 * the byte. (Islands import lucide-react directly: they render in the browser too.)
 */
import * as lucide from 'lucide-react';
import { createElement, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { IconName } from '../../contracts/content.js';

type IconProps = lucide.LucideProps;
export type IconComponent = (props: IconProps) => ReactElement;

/** The React prop of each attribute lucide writes on its <svg>; an unknown one fails loudly. */
const REACT_PROP: Record<string, string> = {
  xmlns: 'xmlns', width: 'width', height: 'height', viewBox: 'viewBox', fill: 'fill', stroke: 'stroke',
  'stroke-width': 'strokeWidth', 'stroke-linecap': 'strokeLinecap', 'stroke-linejoin': 'strokeLinejoin',
  class: 'className', 'aria-hidden': 'aria-hidden', focusable: 'focusable',
};

const unescape = (value: string) =>
  value.replace(/&(quot|#x27|lt|gt|amp);/g, (_, e: string) => ({ quot: '"', '#x27': "'", lt: '<', gt: '>', amp: '&' })[e]!);

function reused(icon: lucide.LucideIcon): IconComponent {
  const drawn = new Map<string, ReactElement>();
  return function StaticIcon(props) {
    const key = JSON.stringify(props);
    let element = drawn.get(key);
    if (!element) {
      const html = renderToStaticMarkup(createElement(icon, props));
      const open = html.indexOf('>');
      const attributes: Record<string, string> = {};
      for (const [, name, value] of html.slice('<svg'.length, open).matchAll(/([^\s=]+)="([^"]*)"/g)) {
        const prop = REACT_PROP[name!];
        if (!prop) throw new Error(`lucide wrote an attribute this wrapper does not know: ${name}`);
        attributes[prop] = unescape(value!);
      }
      element = createElement('svg', { ...attributes, dangerouslySetInnerHTML: { __html: html.slice(open + 1, -'</svg>'.length) } });
      drawn.set(key, element);
    }
    return element;
  };
}

export const ArrowRight = reused(lucide.ArrowRight);
export const ChevronDown = reused(lucide.ChevronDown);
export const CircleCheck = reused(lucide.CircleCheck);
export const Clock = reused(lucide.Clock);
export const Mail = reused(lucide.Mail);
export const MapPin = reused(lucide.MapPin);
export const Menu = reused(lucide.Menu);
export const Phone = reused(lucide.Phone);
export const Sparkles = reused(lucide.Sparkles);
export const Users = reused(lucide.Users);
export const X = reused(lucide.X);

const icons: Record<IconName, IconComponent> = {
  star: reused(lucide.Star), shield: reused(lucide.ShieldCheck), leaf: reused(lucide.Leaf), award: reused(lucide.Award),
  smile: reused(lucide.Smile), calendar: reused(lucide.CalendarCheck), phone: Phone, mail: Mail, 'map-pin': MapPin, clock: Clock,
  home: reused(lucide.House), sparkles: Sparkles, building: reused(lucide.Building2), hammer: reused(lucide.Hammer),
  truck: reused(lucide.Truck), key: reused(lucide.KeyRound), briefcase: reused(lucide.Briefcase), store: reused(lucide.Store),
  stethoscope: reused(lucide.Stethoscope), users: Users, check: reused(lucide.Check), heart: reused(lucide.Heart),
  wind: reused(lucide.Wind), cpu: reused(lucide.Cpu), landmark: reused(lucide.Landmark), waves: reused(lucide.Waves),
  trees: reused(lucide.Trees), ruler: reused(lucide.Ruler), search: reused(lucide.Search), trash: reused(lucide.Trash2),
  spray: reused(lucide.SprayCan),
};

/** A decorative icon; the text next to it carries the meaning. */
export function Icon({ name, className = 'size-6' }: { name: IconName; className?: string }) {
  const Component = icons[name];
  return <Component className={className} aria-hidden="true" focusable="false" />;
}
