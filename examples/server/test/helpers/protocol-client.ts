/**
 * The independent protocol client now lives in the conformance kit
 * (`conformance/src/client/`, published as `@kefu-im/conformance/client`); the server's tests import
 * it from there. This re-export only keeps test files written before the move compiling.
 * @deprecated import from `../../../conformance/src/client/index.js`
 * @module
 */
export * from '../../../../conformance/src/client/index.js';
