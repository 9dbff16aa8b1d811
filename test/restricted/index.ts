// The entry the extension host loads for the Restricted Mode run
// (scripts/vscode-test/run.js --restricted): the integration entry's mocha
// runner, bundled here, so it runs the compiled `*.test.js` beside this file.
export { run } from '../integration/index';
