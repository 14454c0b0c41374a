// Package previewbrowser holds the browser tests of gen/preview: the page
// `mcpgen preview` serves for examples/bookflight, opened in a real headless
// Chromium (examples/internal/browsertest), each column read from the DOM
// and held to the page's model. They live in the examples module so that
// chromedp is not a requirement of the main module.
package previewbrowser
