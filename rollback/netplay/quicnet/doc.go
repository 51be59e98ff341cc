// Package quicnet is the QUIC transport of package rollback/netplay: a
// match's packets in unreliable QUIC datagrams (RFC 9221, through
// quic-go) inside a TLS 1.3 connection, encrypted as well as
// authenticated.
//
// It lives apart so that only a program that names it links quic-go and
// crypto/tls:
//
//	opts := netplay.Options{
//		Transport: netplay.QUIC,
//		Networks:  []netplay.Network{netplay.UDPNetwork(), quicnet.Network()},
//	}
//
// # Trust
//
// The host makes a self-signed certificate for each session (a new P-256
// key, valid for a month); its SHA-256 fingerprint is the network's pin,
// which travels in the join token, and a joiner accepts no other
// certificate, so no certificate authority is involved.
//
// # Goroutines
//
// Each connection has a reader and a writer goroutine (quic-go's
// SendDatagram blocks when 32 datagrams wait), and the host's endpoint an
// accepting one; the conduit owns them all and its Close joins them,
// after letting the datagrams already queued (a bye) leave for at most
// 100ms of the match's clock.
package quicnet
