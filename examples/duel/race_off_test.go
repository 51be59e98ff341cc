//go:build !race

package main

// raceBuild says the tests run under -race: the processes they build
// for it are built so too.
const raceBuild = false
