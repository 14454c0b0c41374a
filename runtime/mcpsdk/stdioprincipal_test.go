package mcpsdk_test

import (
	"context"
	"os/user"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/runtime/mcpsdk"
)

// MCPGEN_PRINCIPAL names the stdio caller; unset or empty, the OS user.
func TestStdioPrincipal(t *testing.T) {
	t.Setenv(mcpsdk.EnvPrincipal, "carol")
	p, err := mcpsdk.StdioPrincipal()
	require.NoError(t, err)
	assert.Equal(t, "carol", p(context.Background(), nil))

	t.Setenv(mcpsdk.EnvPrincipal, "")
	me, err := user.Current()
	require.NoError(t, err)
	p, err = mcpsdk.StdioPrincipal()
	require.NoError(t, err)
	assert.Equal(t, me.Username, p(context.Background(), nil))
}

// A principal that names no user, or would forge a log line, is refused
// with the variable and the value named.
func TestStdioPrincipalRefusesBlankAndControl(t *testing.T) {
	for _, v := range []string{" ", " alice", "alice\t", "a\nb", "a\x1bb"} {
		t.Setenv(mcpsdk.EnvPrincipal, v)
		_, err := mcpsdk.StdioPrincipal()
		require.Error(t, err, "%q", v)
		assert.Contains(t, err.Error(), "MCPGEN_PRINCIPAL=")
	}
}
