package previewbrowser

import "github.com/mcpgen/mcpgen/clients"

// Synthetic clients, one behaviour each, with made-up sources: the page
// must show whatever the table says. They are gen/preview's own test
// clients (preview_test.go), whose unit tests hold the same behaviours
// without a browser.
var (
	codex = &clients.Client{ID: "codex", Name: "Codex", Version: "0.1", Form: clients.Cell{Support: clients.Renders},
		Features: map[clients.Feature]clients.Cell{
			clients.Integer: {Support: clients.Breaks, WholeForm: true, How: "the form becomes a yes/no approval", Source: "https://example.com/codex/integer"},
			clients.String:  {Support: clients.Renders, Source: "https://example.com/codex/string"},
		}}
	goose = &clients.Client{ID: "goose", Name: "Goose", Version: "1.2", Form: clients.Cell{Support: clients.Renders},
		Features: map[clients.Feature]clients.Cell{
			clients.Label: {Support: clients.Degrades, How: "labels each field with its key", Fix: "none", Source: "https://example.com/goose/label"},
		}}
	vscode = &clients.Client{ID: "vscode", Name: "VS Code", Version: "1.100", Form: clients.Cell{Support: clients.Renders},
		Features: map[clients.Feature]clients.Cell{
			clients.TitledEnum:    {Support: clients.Degrades, How: "shows the option's value, the title in grey", Source: "https://example.com/vscode/titled"},
			clients.DefaultFalse:  {Support: clients.Degrades, How: "a default false is not shown", Source: "https://example.com/vscode/false"},
			clients.DeclineCancel: {Support: clients.Degrades, How: "closing the form sends cancel: no decline", Source: "https://example.com/vscode/buttons"},
		}}
	silent = &clients.Client{ID: "silent", Name: "Silent", Version: "3", Form: clients.Cell{Support: clients.Breaks, Source: "https://example.com/silent/caps"}}
)
