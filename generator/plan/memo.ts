/**
 * Plans remembered across planning runs (npm run dev): a page whose inputs are the very same
 * values as last time gets the very same plan object back, so an edit to one city of 10,000 plans
 * and compares that city's page, not 10,000 pages.
 */
import type { PagePlan } from '../../contracts/pages.js';

/** Inputs compared one by one with ===: objects by identity, strings and numbers by value. */
export function sameInputs(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((input, i) => input === b[i]);
}

/** How a planner asks for a plan: made afresh, or remembered (PlanMemo). */
export interface Memo {
  plan(route: string, inputs: readonly unknown[], make: () => PagePlan): PagePlan;
  retain(routes: ReadonlySet<string>): void;
}

/** A build plans each page once and keeps none: the plans of a large site would fill the memory. */
export const NO_MEMO: Memo = { plan: (_route, _inputs, make) => make(), retain: () => undefined };

export class PlanMemo implements Memo {
  private plans = new Map<string, { inputs: readonly unknown[]; plan: PagePlan }>();

  /**
   * The plan of `route`, made by `make` unless its `inputs` are the same as last time, each one
   * compared with ===: objects by identity (the model keeps unchanged entries), strings by value.
   * `inputs` must list everything `make` reads.
   */
  plan(route: string, inputs: readonly unknown[], make: () => PagePlan): PagePlan {
    const before = this.plans.get(route);
    if (before && sameInputs(before.inputs, inputs)) return before.plan;
    const plan = make();
    this.plans.set(route, { inputs, plan });
    return plan;
  }

  /** Forget the pages that are gone. */
  retain(routes: ReadonlySet<string>): void {
    for (const route of this.plans.keys()) if (!routes.has(route)) this.plans.delete(route);
  }
}
