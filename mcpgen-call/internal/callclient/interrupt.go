package callclient

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	tea "github.com/charmbracelet/bubbletea"
)

// ExitInterrupted is the exit status after Ctrl-C (SIGINT), 128 + 2, as
// shells report a process ended by SIGINT.
const ExitInterrupted = 130

// An interruptError is Ctrl-C: in a form (Form is its message), nothing
// was answered; the call ends without sending accept, decline or cancel.
type interruptError struct {
	Form string
}

func (e *interruptError) Error() string {
	if e.Form != "" {
		return fmt.Sprintf("interrupted (Ctrl-C) in the form %q: nothing was answered", e.Form)
	}
	return "interrupted (Ctrl-C)"
}

// interrupts ends the run's context with an *interruptError on SIGINT,
// until stop is called. In a form the terminal is raw and Ctrl-C is a key,
// which interruptKeys turns into the same interrupt.
func (c *caller) interrupts(ctx context.Context) (stop func()) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	done := make(chan struct{})
	go func() {
		select {
		case <-sig:
			c.interrupt()
		case <-done:
		case <-ctx.Done():
		}
	}()
	return func() { signal.Stop(sig); close(done) }
}

// interrupt cancels the run with an *interruptError naming the form shown,
// if any.
func (c *caller) interrupt() {
	c.mu.Lock()
	form := c.form
	c.mu.Unlock()
	c.cancel(&interruptError{Form: form})
}

// interruptKeys is the forms' bubbletea message filter: Ctrl-C (a key in
// the raw terminal) interrupts the run, whose context ends the form; Esc
// stays the form's cancel (an answer, not an interrupt of the run). A SIGINT from elsewhere reaches
// interrupts.
func (c *caller) interruptKeys(_ tea.Model, msg tea.Msg) tea.Msg {
	if k, ok := msg.(tea.KeyMsg); ok && k.Type == tea.KeyCtrlC {
		c.interrupt()
		return nil
	}
	return msg
}
