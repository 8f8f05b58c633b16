import { afterAll } from 'vitest';
import { configure } from '@testing-library/react';

// findBy… and waitFor give a rendering up to 10 s, not 1 s: on two cores shared
// with the database and stack tests, a component's first render (a lazily loaded page, transformed on first import) can take seconds.
configure({ asyncUtilTimeout: 10_000 });

// sonner removes a dismissed toast 200 ms later, from a timer: let those timers run while the page (jsdom) still exists.
afterAll(() => new Promise<void>((resolve) => setTimeout(resolve, 300)));
