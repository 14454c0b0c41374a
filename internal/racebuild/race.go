//go:build race

package racebuild

const enabled = true
