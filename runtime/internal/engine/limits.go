package engine

import (
	"context"
	"fmt"
	"sort"

	"github.com/mcpgen/mcpgen/runtime/protocol"
)

// limitError is a limit broken by a request, for Rejection.Err.
type limitError struct {
	msg string
	err error
}

func (e *limitError) Error() string { return e.msg }
func (e *limitError) Unwrap() error { return e.err }

// checkLimits checks a request against the size limits before any other work
// (no decoding, decryption or validation has happened): the arguments'
// size, the requestState's length and, for every elicitation answer, the
// content's total size, each string's length and each array's item count. A broken limit is reported to
// OnReject (and r's record) and returned as a -32602 *protocol.Error naming what is too large;
// no branch runs and nothing is asked again (a client that follows the
// schema it was sent stays far below the defaults).
func (o *Options) checkLimits(ctx context.Context, r *round) error {
	req := r.req
	var err *limitError
	if n := len(req.Arguments); o.MaxArgumentsBytes > 0 && n > o.MaxArgumentsBytes {
		err = &limitError{fmt.Sprintf("arguments of %d bytes are over the limit of %d (Options.MaxArgumentsBytes)", n, o.MaxArgumentsBytes), ErrArgumentsTooLarge}
	} else if n := len(req.RequestState); o.MaxStateSize > 0 && n > o.MaxStateSize {
		err = &limitError{fmt.Sprintf("requestState of %d characters is over the limit of %d (Options.MaxStateSize)", n, o.MaxStateSize), ErrStateTooLarge}
	} else {
		keys := make([]string, 0, len(req.InputResponses))
		for k := range req.InputResponses {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			er, ok := req.InputResponses[k].(*protocol.ElicitResult)
			if !ok || er == nil || er.Content == nil {
				continue
			}
			if msg := o.contentOverLimit(er.Content); msg != "" {
				err = &limitError{fmt.Sprintf("inputResponses[%q] content %s", k, msg), ErrContentTooLarge}
				break
			}
		}
	}
	if err == nil {
		return nil
	}
	r.rejected(ctx, err)
	return &protocol.Error{Code: protocol.CodeInvalidParams, Message: err.Error()}
}

// contentOverLimit measures content against MaxContentBytes (the bytes of
// every key and string, plus 8 per number, boolean, null, array or object),
// MaxStringBytes
// and MaxSelectItems, and says which is broken first ("" when none). It
// stops as soon as the total is over, so hostile content costs little.
func (o *Options) contentOverLimit(content map[string]any) string {
	total := 0
	var walk func(field string, v any) string
	walk = func(field string, v any) string {
		switch x := v.(type) {
		case string:
			if o.MaxStringBytes > 0 && len(x) > o.MaxStringBytes {
				return fmt.Sprintf("field %q: string of %d bytes is over the limit of %d (Options.MaxStringBytes)", field, len(x), o.MaxStringBytes)
			}
			total += len(x)
		case []any:
			total += 8
			if msg := walkItems(o, field, x, walk); msg != "" {
				return msg
			}
		case []string: // content built in Go rather than decoded from JSON
			total += 8
			if msg := walkItems(o, field, x, walk); msg != "" {
				return msg
			}
		case map[string]any:
			total += 8
			for k, it := range x {
				total += len(k)
				if msg := walk(field, it); msg != "" {
					return msg
				}
			}
		default:
			total += 8
		}
		if o.MaxContentBytes > 0 && total > o.MaxContentBytes {
			return fmt.Sprintf("is over the limit of %d bytes (Options.MaxContentBytes)", o.MaxContentBytes)
		}
		return ""
	}
	keys := make([]string, 0, len(content))
	for k := range content {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		total += len(k)
		if msg := walk(k, content[k]); msg != "" {
			return msg
		}
	}
	return ""
}

// walkItems checks a select answer's item count against MaxSelectItems, then
// walks each item; it is contentOverLimit's step for []any and []string.
func walkItems[T any](o *Options, field string, items []T, walk func(field string, v any) string) string {
	if o.MaxSelectItems > 0 && len(items) > o.MaxSelectItems {
		return fmt.Sprintf("field %q: %d items are over the limit of %d (Options.MaxSelectItems)", field, len(items), o.MaxSelectItems)
	}
	for _, it := range items {
		if msg := walk(field, it); msg != "" {
			return msg
		}
	}
	return ""
}
