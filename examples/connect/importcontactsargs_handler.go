package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcpgen/mcpgen/runtime"
)

// importContactsArgsHandler runs the import_contacts tool against its
// contacts service, keeping each user's API key in its vault: register it
// with NewImportContactsArgsFlow(importContactsArgsHandler{contacts, vault}).
//
// This file is yours. mcpgen wrote it once and never overwrites it; edit the branches freely.
// If ImportContactsArgsHandler changes, the assertion below stops compiling until the methods
// match.
type importContactsArgsHandler struct {
	contacts ContactsService
	vault    *KeyVault
}

var _ ImportContactsArgsHandler = importContactsArgsHandler{}

// askKeyMessage is the message of the APIKey question: the client shows it
// with the page's URL.
const askKeyMessage = "The contacts service needs your API key. Enter it on this server's page: " +
	"it is kept on the server, encrypted, and never passes through your assistant."

// Accept imports the caller's contacts with the key the vault keeps for
// them. Without one (or when the service no longer accepts it), it asks the
// APIKey question in URL mode: the user enters the key on the server's
// page, the service checks it (a key it refuses is asked again with its
// reason), and the key is kept for later calls. The flow runs Accept again
// from the top on every round, so everything before runtime.Ask is free of
// side effects (forgetting a refused key is one the next round repeats
// harmlessly); the key is kept only after the last question.
func (h importContactsArgsHandler) Accept(ctx context.Context, args *ImportContactsArgs) (*runtime.Result, error) {
	user := runtime.Principal(ctx)
	if user == "" {
		return nil, errors.New("import_contacts: no authenticated caller")
	}
	key, ok, err := h.vault.Get(ctx, user)
	if err != nil {
		return nil, err
	}
	if ok {
		list, err := h.contacts.Contacts(ctx, key)
		switch {
		case err == nil:
			return imported(user, list, args.Limit), nil
		case !errors.Is(err, ErrKeyRefused):
			return nil, err
		}
		// The service no longer accepts the kept key: forget it and ask.
		if err := h.vault.Delete(ctx, user); err != nil {
			return nil, err
		}
	}
	var q APIKey
	action, err := runtime.Ask(ctx, "api_key", &q, &runtime.AskOptions{
		Message: askKeyMessage,
		// Check runs on the key the page received: a key the service
		// refuses is asked again, with the service's reason. Any other
		// error is asked again with words of our own: its text (a real
		// client's quotes the request, which may carry the key) would be
		// shown to the user and reach the client.
		Check: func(ctx context.Context) error {
			_, err := h.contacts.Contacts(ctx, q.Key)
			if err != nil && !errors.Is(err, ErrKeyRefused) {
				return errors.New("the contacts service could not be reached to check this key; try again")
			}
			return err
		},
	})
	if err != nil {
		return nil, err // not answered yet: the flow asks, and runs Accept again on the retry
	}
	switch action {
	case runtime.Decline:
		return runtime.Text("No API key given: nothing imported."), nil
	case runtime.Cancel:
		return runtime.Text("Import cancelled: nothing imported."), nil
	}
	list, err := h.contacts.Contacts(ctx, q.Key)
	if errors.Is(err, ErrKeyRefused) {
		return runtime.ToolError("import_contacts: %v", err), nil // refused since Check accepted it
	}
	if err != nil {
		return nil, err
	}
	// After the last question: keep the key for the next calls.
	if err := h.vault.Put(ctx, user, q.Key); err != nil {
		return nil, fmt.Errorf("import_contacts: keeping the API key: %w", err)
	}
	return imported(user, list, args.Limit), nil
}

// imported is the tool's result: the count in the text, the contacts
// (at most limit when limit > 0) as structured content.
func imported(user string, list []Contact, limit int) *runtime.Result {
	if limit > 0 && len(list) > limit {
		list = list[:limit]
	}
	noun := "contacts"
	if len(list) == 1 {
		noun = "contact"
	}
	res := runtime.Textf("Imported %d %s for %s.", len(list), noun, user)
	res.Structured = importedOut{Contacts: list}
	return res
}

// importedOut is the structured content of import_contacts.
type importedOut struct {
	Contacts []Contact `json:"contacts"`
}
