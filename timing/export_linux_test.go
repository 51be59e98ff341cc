package timing

// LowerTimerSlack lets the tests lower the calling thread's timer slack, a
// Linux setting.
var LowerTimerSlack = lowerTimerSlack
