// Package netplay carries a rollback match between processes: a host
// listens, joiners join with the token it prints, and each end gets a
// [Match], which is a [rollback.Transport] for the sessions' messages.
package netplay
