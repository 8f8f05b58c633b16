import { configure } from '@testing-library/react';

// findBy… and waitFor give a rendering up to 10 s, not 1 s: on two cores shared
// with the database and stack tests, a component's first render (a lazily loaded page, transformed on first import) can take seconds.
configure({ asyncUtilTimeout: 10_000 });
