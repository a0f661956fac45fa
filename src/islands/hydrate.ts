/**
 * When an island hydrates: on idle, when it nears the viewport, on first interaction, or when its
 * own schedule in islandSchedules (src/islands/registry.ts) says so.
 */
export type Hydrate = 'idle' | 'visible' | 'interaction' | 'scheduled';
