// Package urlmode holds what the flow engine (package runtime) and the page
// handler (package runtime/page) share about URL-mode questions (MCP
// 2026-07-28, client/elicitation, "URL Mode Elicitation Requests"): the
// registry of question types that generated code fills, and the record a
// page keeps in the shared store.
package urlmode

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"time"
)

// Question is one URL-mode question type, as generated code registers it.
type Question struct {
	// Name is the type's import path and name ("example.com/connect.APIKey"):
	// what a page's record names, so that any instance finds the type.
	Name string
	// New returns a zero value of the type (a pointer to the struct), to
	// fill and validate with what the page receives.
	New func() any
	// Form is the HTML of the form's fields (labels, inputs), written by
	// mcpgen from the elicit tags at generation time, already escaped.
	Form string
}

var (
	mu     sync.RWMutex
	byName = map[string]*Question{}
	byType = map[reflect.Type]*Question{}
)

// Register records q's type as a URL-mode question whose page shows form.
// q must be a non-nil pointer to a named struct. It panics on a type or a
// name registered twice (two generated files for one struct), as
// encoding/gob's Register does.
func Register(q any, form string) {
	t := reflect.TypeOf(q)
	if t == nil || t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct || t.Elem().Name() == "" {
		panic(fmt.Sprintf("mcpgen: a URL-mode question must be a pointer to a named struct, not %v", t))
	}
	name := t.Elem().PkgPath() + "." + t.Elem().Name()
	elem := t.Elem()
	reg := &Question{Name: name, Form: form, New: func() any { return reflect.New(elem).Interface() }}
	mu.Lock()
	defer mu.Unlock()
	if _, dup := byName[name]; dup {
		panic("mcpgen: URL-mode question " + name + " registered twice")
	}
	byName[name], byType[t] = reg, reg
}

// ByType returns the registration of q's type, or nil when q is not a
// URL-mode question.
func ByType(q any) *Question {
	mu.RLock()
	defer mu.RUnlock()
	return byType[reflect.TypeOf(q)]
}

// ByName returns the registration called name, or nil.
func ByName(name string) *Question {
	mu.RLock()
	defer mu.RUnlock()
	return byName[name]
}

// recordPrefix and answerPrefix start the plaintext of a sealed record and
// answer, so that neither opens as the other nor as a requestState (whose
// plaintext is a JSON object).
const (
	recordPrefix = "mcpgen-page-record\x00"
	answerPrefix = "mcpgen-page-answer\x00"
	csrfPrefix   = "mcpgen-page-csrf\x00"
)

// Record is what the store keeps under a page's id while the page is open:
// whose it is and what it asks. It is sealed with the key ring before it is
// stored, so that whoever can write to the store cannot forge one.
type Record struct {
	Question  string `json:"q"` // the registered question's Name
	Principal string `json:"p"` // the flow's principal: the only user the page serves
	FlowID    []byte `json:"f"` // the flow the page belongs to
	Message   string `json:"m"` // the message the question was asked with
	Expires   int64  `json:"e"` // Unix seconds: the page's end (the flow's)
}

// Expired reports whether the page has expired at now.
func (r *Record) Expired(now time.Time) bool { return now.Unix() >= r.Expires }

// Sealer is the key ring's half the records need ([runtime.KeyRing]).
type Sealer interface {
	Seal(plaintext []byte) string
	Open(sealed string, maxLen int) ([]byte, error)
}

// SealRecord returns r sealed for the store under page id: bound to id, so
// that whoever can write to the store cannot move a record to another page
// (alice's record onto the id of bob's flow would have her complete, on a
// page that looks like hers, the page whose answer bob's flow reads).
func SealRecord(k Sealer, id string, r *Record) ([]byte, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	return []byte(k.Seal(append([]byte(recordPrefix+id+"\x00"), b...))), nil
}

// OpenRecord opens a record that SealRecord sealed for id.
func OpenRecord(k Sealer, id string, sealed []byte) (*Record, error) {
	pt, err := open(k, sealed, recordPrefix+id+"\x00")
	if err != nil {
		return nil, err
	}
	var r Record
	if err := json.Unmarshal(pt, &r); err != nil {
		return nil, fmt.Errorf("page record: %w", err)
	}
	return &r, nil
}

// SealAnswer returns content (a form's content, as JSON) sealed for the
// store, bound to the page id.
func SealAnswer(k Sealer, id string, content []byte) []byte {
	return []byte(k.Seal(append([]byte(answerPrefix+id+"\x00"), content...)))
}

// OpenAnswer opens an answer that SealAnswer sealed for id.
func OpenAnswer(k Sealer, id string, sealed []byte) (map[string]any, error) {
	pt, err := open(k, sealed, answerPrefix+id+"\x00")
	if err != nil {
		return nil, err
	}
	var content map[string]any
	if err := json.Unmarshal(pt, &content); err != nil {
		return nil, fmt.Errorf("page answer: %w", err)
	}
	return content, nil
}

// CSRFToken returns the token the page's form carries for id and principal
// (sealed, so any instance checks it without shared state).
func CSRFToken(k Sealer, id, principal string) string {
	return k.Seal([]byte(csrfPrefix + id + "\x00" + principal))
}

// CheckCSRF reports whether token is CSRFToken's for id and principal.
func CheckCSRF(k Sealer, token, id, principal string) bool {
	if token == "" {
		return false
	}
	pt, err := k.Open(token, 512)
	return err == nil && string(pt) == csrfPrefix+id+"\x00"+principal
}

var errDomain = errors.New("sealed for another use")

func open(k Sealer, sealed []byte, prefix string) ([]byte, error) {
	pt, err := k.Open(string(sealed), 0)
	if err != nil {
		return nil, err
	}
	if len(pt) < len(prefix) || string(pt[:len(prefix)]) != prefix {
		return nil, errDomain
	}
	return pt[len(prefix):], nil
}
