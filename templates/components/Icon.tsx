import {
  Award, Briefcase, Building2, CalendarCheck, Check, Clock, Cpu, Hammer, Heart, House, KeyRound, Landmark, Leaf, Mail,
  MapPin, Phone, Ruler, Search, ShieldCheck, Smile, Sparkles, SprayCan, Stethoscope, Star, Store, Trash2, Trees, Truck,
  Users, Waves, Wind, type LucideIcon,
} from 'lucide-react';
import type { IconName } from '../../contracts/content.js';

const icons: Record<IconName, LucideIcon> = {
  star: Star, shield: ShieldCheck, leaf: Leaf, award: Award, smile: Smile, calendar: CalendarCheck, phone: Phone,
  mail: Mail, 'map-pin': MapPin, clock: Clock, home: House, sparkles: Sparkles, building: Building2, hammer: Hammer,
  truck: Truck, key: KeyRound, briefcase: Briefcase, store: Store, stethoscope: Stethoscope, users: Users, check: Check,
  heart: Heart, wind: Wind, cpu: Cpu, landmark: Landmark, waves: Waves, trees: Trees, ruler: Ruler, search: Search,
  trash: Trash2, spray: SprayCan,
};

/** A decorative icon; the text next to it carries the meaning. */
export function Icon({ name, className = 'size-6' }: { name: IconName; className?: string }) {
  const Component = icons[name];
  return <Component className={className} aria-hidden="true" focusable="false" />;
}
