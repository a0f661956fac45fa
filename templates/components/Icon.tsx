/**
 * Icons for the server-rendered pages. Each lucide icon is drawn by React once per distinct set of
 * props and the finished <svg> is reused: drawing icons took a tenth of a page's render time, and
 * a 10,000-page site draws the same few dozen icons 300,000 times. The markup is lucide's own,
 * to the byte. One module per icon: the package's index holds all 1,600 icons, 77 MB of memory in
 * every render thread. (Islands use lucide-react directly: they render in the browser too.)
 */
import type { LucideIcon, LucideProps } from 'lucide-react';
import ArrowRightIcon from 'lucide-react/icons/arrow-right';
import AwardIcon from 'lucide-react/icons/award';
import BriefcaseIcon from 'lucide-react/icons/briefcase';
import Building2Icon from 'lucide-react/icons/building-2';
import CalendarCheckIcon from 'lucide-react/icons/calendar-check';
import CheckIcon from 'lucide-react/icons/check';
import ChevronDownIcon from 'lucide-react/icons/chevron-down';
import CircleCheckIcon from 'lucide-react/icons/circle-check';
import ClockIcon from 'lucide-react/icons/clock';
import CpuIcon from 'lucide-react/icons/cpu';
import GlobeIcon from 'lucide-react/icons/globe';
import HammerIcon from 'lucide-react/icons/hammer';
import HeartIcon from 'lucide-react/icons/heart';
import HouseIcon from 'lucide-react/icons/house';
import KeyRoundIcon from 'lucide-react/icons/key-round';
import LandmarkIcon from 'lucide-react/icons/landmark';
import LeafIcon from 'lucide-react/icons/leaf';
import MailIcon from 'lucide-react/icons/mail';
import MapPinIcon from 'lucide-react/icons/map-pin';
import MenuIcon from 'lucide-react/icons/menu';
import PhoneIcon from 'lucide-react/icons/phone';
import RulerIcon from 'lucide-react/icons/ruler';
import SearchIcon from 'lucide-react/icons/search';
import ShieldCheckIcon from 'lucide-react/icons/shield-check';
import SmileIcon from 'lucide-react/icons/smile';
import SparklesIcon from 'lucide-react/icons/sparkles';
import SprayCanIcon from 'lucide-react/icons/spray-can';
import StarIcon from 'lucide-react/icons/star';
import StethoscopeIcon from 'lucide-react/icons/stethoscope';
import StoreIcon from 'lucide-react/icons/store';
import Trash2Icon from 'lucide-react/icons/trash-2';
import TreesIcon from 'lucide-react/icons/trees';
import TruckIcon from 'lucide-react/icons/truck';
import UsersIcon from 'lucide-react/icons/users';
import WavesIcon from 'lucide-react/icons/waves';
import WindIcon from 'lucide-react/icons/wind';
import XIcon from 'lucide-react/icons/x';
import { createElement, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { IconName } from '../../contracts/content.js';

type IconProps = LucideProps;
export type IconComponent = (props: IconProps) => ReactElement;

/** The React prop of each attribute lucide writes on its <svg>; an unknown one fails loudly. */
const REACT_PROP: Record<string, string> = {
  xmlns: 'xmlns', width: 'width', height: 'height', viewBox: 'viewBox', fill: 'fill', stroke: 'stroke',
  'stroke-width': 'strokeWidth', 'stroke-linecap': 'strokeLinecap', 'stroke-linejoin': 'strokeLinejoin',
  class: 'className', 'aria-hidden': 'aria-hidden', focusable: 'focusable',
};

const unescape = (value: string) =>
  value.replace(/&(quot|#x27|lt|gt|amp);/g, (_, e: string) => ({ quot: '"', '#x27': "'", lt: '<', gt: '>', amp: '&' })[e]!);

function reused(icon: LucideIcon): IconComponent {
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

export const ArrowRight = reused(ArrowRightIcon);
export const ChevronDown = reused(ChevronDownIcon);
export const CircleCheck = reused(CircleCheckIcon);
export const Clock = reused(ClockIcon);
export const Globe = reused(GlobeIcon);
export const Mail = reused(MailIcon);
export const MapPin = reused(MapPinIcon);
export const Menu = reused(MenuIcon);
export const Phone = reused(PhoneIcon);
export const Sparkles = reused(SparklesIcon);
export const Users = reused(UsersIcon);
export const X = reused(XIcon);

const icons: Record<IconName, IconComponent> = {
  star: reused(StarIcon), shield: reused(ShieldCheckIcon), leaf: reused(LeafIcon), award: reused(AwardIcon),
  smile: reused(SmileIcon), calendar: reused(CalendarCheckIcon), phone: Phone, mail: Mail, 'map-pin': MapPin, clock: Clock,
  home: reused(HouseIcon), sparkles: Sparkles, building: reused(Building2Icon), hammer: reused(HammerIcon),
  truck: reused(TruckIcon), key: reused(KeyRoundIcon), briefcase: reused(BriefcaseIcon), store: reused(StoreIcon),
  stethoscope: reused(StethoscopeIcon), users: Users, check: reused(CheckIcon), heart: reused(HeartIcon),
  wind: reused(WindIcon), cpu: reused(CpuIcon), landmark: reused(LandmarkIcon), waves: reused(WavesIcon),
  trees: reused(TreesIcon), ruler: reused(RulerIcon), search: reused(SearchIcon), trash: reused(Trash2Icon),
  spray: reused(SprayCanIcon),
};

/** A decorative icon; the text next to it carries the meaning. */
export function Icon({ name, className = 'size-6' }: { name: IconName; className?: string }) {
  const Component = icons[name];
  return <Component className={className} aria-hidden="true" focusable="false" />;
}
