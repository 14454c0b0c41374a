//go:build !race

package racebuild

const enabled = false
