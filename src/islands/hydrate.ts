/** When an island hydrates: on idle, when it nears the viewport, or on first interaction. */
export type Hydrate = 'idle' | 'visible' | 'interaction';
