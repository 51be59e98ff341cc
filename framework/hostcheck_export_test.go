package framework

// ValidateHost exposes validateHost, so that the desktop tests check the
// browser build's refusal too.
func (f *Flags) ValidateHost(inPage bool) error { return f.validateHost(inPage) }
