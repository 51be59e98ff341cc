package server

import (
	"errors"
	"fmt"
	"net/url"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// NATSOptions configures a NATS server embedded in the lobby's process.
// A zero NATSOptions runs a lone server that listens nowhere: the lobby
// reaches it in-process ([ConnectEmbedded]) and nothing else can.
type NATSOptions struct {
	// Name names the server in a cluster; it must be unique there.
	// Default "lobby".
	Name string
	// Dir is where JetStream keeps its files (the lobby's bucket lives in
	// memory, so little is written). Default: a directory under os.TempDir
	// chosen by the server.
	Dir string
	// ClientAddr, when set ("127.0.0.1:4222", port 0 for any), makes the
	// server accept NATS clients over TCP, such as other lobby instances.
	ClientAddr string
	// Cluster names the cluster; with ClusterAddr and Routes, the server
	// joins the others that share the name.
	Cluster string
	// ClusterAddr is where the server listens for its cluster's routes.
	ClusterAddr string
	// Routes are the other servers' cluster addresses, "nats://host:port".
	Routes []string
}

// StartNATS starts a NATS server with JetStream in this process and waits
// until it accepts connections. The caller shuts it down
// (Server.Shutdown, then WaitForShutdown).
func StartNATS(o NATSOptions) (*natsserver.Server, error) {
	opts := &natsserver.Options{
		ServerName: o.Name,
		JetStream:  true,
		StoreDir:   o.Dir,
		NoLog:      true,
		NoSigs:     true,
		DontListen: o.ClientAddr == "",
	}
	if opts.ServerName == "" {
		opts.ServerName = "lobby"
	}
	if o.ClientAddr != "" {
		h, p, err := splitAddr("NATSOptions.ClientAddr", o.ClientAddr)
		if err != nil {
			return nil, err
		}
		opts.Host, opts.Port = h, p
	}
	if o.ClusterAddr != "" {
		h, p, err := splitAddr("NATSOptions.ClusterAddr", o.ClusterAddr)
		if err != nil {
			return nil, err
		}
		opts.Cluster = natsserver.ClusterOpts{Name: o.Cluster, Host: h, Port: p}
		for _, r := range o.Routes {
			u, err := url.Parse(r)
			if err != nil {
				return nil, fmt.Errorf("lobby: NATSOptions.Routes: %q: %w", r, err)
			}
			opts.Routes = append(opts.Routes, u)
		}
	}
	ns, err := natsserver.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("lobby: the embedded NATS server: %w", err)
	}
	ns.Start()
	if !ns.ReadyForConnections(30 * time.Second) {
		ns.Shutdown()
		return nil, errors.New("lobby: the embedded NATS server was not ready within 30 s")
	}
	return ns, nil
}

// ConnectEmbedded connects to a server of [StartNATS] in-process, without a
// socket.
func ConnectEmbedded(ns *natsserver.Server, name string) (*nats.Conn, error) {
	nc, err := nats.Connect(ns.ClientURL(), nats.InProcessServer(ns), nats.Name(name))
	if err != nil {
		return nil, fmt.Errorf("lobby: connecting to the embedded NATS server: %w", err)
	}
	return nc, nil
}

// Connect connects to a NATS server or cluster at urls (comma-separated),
// reconnecting to another of its servers for as long as the lobby runs.
func Connect(urls, name string) (*nats.Conn, error) {
	nc, err := nats.Connect(urls, nats.Name(name), nats.MaxReconnects(-1),
		nats.ReconnectWait(250*time.Millisecond), nats.RetryOnFailedConnect(false))
	if err != nil {
		return nil, fmt.Errorf("lobby: connecting to NATS at %s: %w", urls, err)
	}
	return nc, nil
}

func splitAddr(field, addr string) (string, int, error) {
	u, err := url.Parse("//" + addr)
	if err != nil || u.Hostname() == "" || u.Port() == "" {
		return "", 0, fmt.Errorf("lobby: %s %q: want host:port", field, addr)
	}
	var p int
	if _, err := fmt.Sscan(u.Port(), &p); err != nil || p < 0 || p > 65535 {
		return "", 0, fmt.Errorf("lobby: %s %q: port 0 to 65535 allowed", field, addr)
	}
	if p == 0 {
		p = natsserver.RANDOM_PORT // the server reads 0 as its default port
	}
	return u.Hostname(), p, nil
}
