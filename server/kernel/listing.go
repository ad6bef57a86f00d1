// listing.go: the kernels a caller names the one way every surface does
// (kernel_list, `dapscope kernel list`, the editor's dapscope/kernels, and
// attaching): a Jupyter Server's, its token from the caller, a private
// token file, $JUPYTER_TOKEN or a ?token= in its URL; else the local ones.

package kernel

import (
	"context"

	"github.com/dapscope/dapscope/errcode"
)

// ServerRef names a Jupyter Server and how to authenticate to it.
type ServerRef struct {
	URL string // empty: no server, the local kernels
	// Token authenticates; else TokenFile, else $JUPYTER_TOKEN, else a
	// ?token= in the URL.
	Token     string
	TokenFile string
	Options   ServerOptions // AllowHosts: the sidecar's --attach-hosts; its Token is filled in
}

// Open is the client of the server r names. A token file that cannot be
// used or a bad URL is an INVALID_ARGUMENT naming token_file or server_url.
func (r ServerRef) Open() (*Server, error) {
	o := r.Options
	o.Token = r.Token
	if o.Token == "" && r.TokenFile != "" {
		t, err := ReadToken(r.TokenFile)
		if err != nil {
			return nil, errcode.Invalid("token_file", "%v", err)
		}
		o.Token = t
	} else if o.Token == "" {
		o.Token, _ = ReadToken("") // $JUPYTER_TOKEN, when set
	}
	srv, err := NewServer(r.URL, o)
	if err != nil {
		return nil, errcode.Invalid("server_url", "%v", err)
	}
	return srv, nil
}

// Kernels lists the kernels of the server r names, or with no URL the
// local ones (List with local); never nil.
func Kernels(ctx context.Context, r ServerRef, local ListOptions) ([]Kernel, error) {
	var ks []Kernel
	var err error
	if r.URL != "" {
		var srv *Server
		if srv, err = r.Open(); err != nil {
			return nil, err
		}
		if ks, err = srv.List(ctx); err != nil {
			return nil, attachError(err)
		}
	} else {
		ks, err = List(ctx, local)
	}
	if err != nil {
		return nil, err
	}
	if ks == nil {
		ks = []Kernel{}
	}
	return ks, nil
}
