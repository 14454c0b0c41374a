package callclient

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioTerminate is how long closing a stdio server waits for it to exit
// after its standard input is closed, and again after SIGTERM, before
// SIGKILL (MCP 2026-07-28 basic/transports, stdio "Shutdown").
const stdioTerminate = 5 * time.Second

// stdioTransport runs a stdio server as go-sdk's CommandTransport does,
// but reads its standard output through the call's readBudget (go-sdk's
// own bounds one line, not a call).
type stdioTransport struct {
	cmd    *exec.Cmd
	budget *readBudget
}

func (t stdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	stdout, err := t.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stdin, err := t.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := t.cmd.Start(); err != nil {
		return nil, err
	}
	// Closing the connection closes the server's stdin, never its stdout
	// first (it may still be writing its last message).
	r := t.budget.wrap(io.NopCloser(stdout))
	return (&mcp.IOTransport{Reader: r, Writer: serverStdin{stdin, t.cmd}, MaxLineLength: -1}).Connect(ctx)
}

// serverStdin is the server's standard input; Close ends the server: stdin
// closed, then SIGTERM, then SIGKILL, each after stdioTerminate.
type serverStdin struct {
	io.WriteCloser
	cmd *exec.Cmd
}

func (s serverStdin) Close() error {
	if err := s.WriteCloser.Close(); err != nil {
		return fmt.Errorf("closing the server's stdin: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	for _, next := range []func() error{
		func() error { return s.cmd.Process.Signal(syscall.SIGTERM) },
		s.cmd.Process.Kill,
	} {
		select {
		case err := <-done:
			return err
		case <-time.After(stdioTerminate):
		}
		_ = next()
	}
	return <-done
}
