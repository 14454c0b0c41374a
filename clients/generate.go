package clients

// docs/clients.md is rendered from All; a test in internal/render fails when
// it is stale.
//go:generate go run ./internal/render -o ../docs/clients.md
