//go:build !race

package glfwinput_test

const raceEnabled = false
