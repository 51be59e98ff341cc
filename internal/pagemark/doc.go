// Package pagemark records the phases of a browser game's start on the
// page's performance timeline (performance.mark), so that the time from
// page load to the first frame can be split into its parts: the page's
// own marks (fetch, compile) and the program's (main, setup, window) sit
// on one clock, shown by the browser's profiler and read by
// bench/firstpresent. Native builds record nothing.
//
//	pagemark.Mark("metronome:setup-end")
package pagemark
