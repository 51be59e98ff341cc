package main

import "embed"

// source is the duel's own code: a networked match hashes it into its
// identity (framework.Game.Source), so a build of different code is
// refused.
//
//go:embed *.go
var source embed.FS
