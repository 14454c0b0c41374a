package memo

import (
	"os"
	"strconv"
	"syscall"
)

// changeStamp is what, beyond size and modification time, tells that a
// file's bytes may have changed: on Linux its inode and status change time
// (ctime), which a copy that keeps the modification time (cp -p, rsync -a,
// tar) still moves.
func changeStamp(fi os.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	return strconv.FormatUint(st.Ino, 10) + "." + strconv.FormatInt(st.Ctim.Sec, 10) + "." + strconv.FormatInt(st.Ctim.Nsec, 10)
}
