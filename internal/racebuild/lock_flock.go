//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package racebuild

import (
	"os"
	"syscall"
)

// lock takes an exclusive lock on the file at name (created if need be),
// waiting for another process's to end; unlock releases it.
func lock(name string) (unlock func(), err error) {
	f, err := os.OpenFile(name, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil // closing the file releases the lock
}
