/** Whether this build carries the test fixtures (the scripted backend and its
 *  scripts): `vite build --mode test` and Vitest, never the app's bundle. */
declare const __TEST_FIXTURES__: boolean;
