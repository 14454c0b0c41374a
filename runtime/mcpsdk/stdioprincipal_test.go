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
