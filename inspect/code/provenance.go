// provenance.go answers "when did this file last change": one
// `git log -1 --format='%h %cs' -- <path>` per file with a 1 s timeout,
// cached per (path, content hash) until the next Refresh. No git, no
// repository or an untracked file give null fields, never an error.

package code

import (
	"context"
	"os/exec"
	"strings"
	"time"
)

// GitTimeout bounds each git call.
const GitTimeout = time.Second

type provCache struct {
	hash   string
	commit *string
	date   *string
}

func (ix *Index) gitLast(rel, hash string) (commit, date *string) {
	if ix.opts.NoGit {
		return nil, nil
	}
	ix.provMu.Lock()
	c, ok := ix.prov[rel]
	ix.provMu.Unlock()
	if ok && c.hash == hash {
		return c.commit, c.date
	}
	commit, date = gitLog(ix.root, rel)
	ix.provMu.Lock()
	ix.prov[rel] = provCache{hash: hash, commit: commit, date: date}
	ix.provMu.Unlock()
	return commit, date
}

// gitLog runs git log for one path; any failure yields nils.
func gitLog(root, rel string) (commit, date *string) {
	ctx, cancel := context.WithTimeout(context.Background(), GitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "-C", root, "log", "-1", "--format=%h %cs", "--", rel)
	cmd.Env = append(cmd.Environ(), "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0")
	cmd.WaitDelay = 100 * time.Millisecond
	out, err := cmd.Output()
	if err != nil {
		return nil, nil
	}
	f := strings.Fields(strings.TrimSpace(string(out)))
	if len(f) != 2 {
		return nil, nil
	}
	return &f[0], &f[1]
}

func (ix *Index) provenance(rel string, fr *fileRec) Provenance {
	p := Provenance{Kind: fileKind(rel, "")}
	hash := ""
	if fr != nil {
		p.Kind = fr.Kind
		hash = fr.Hash
		s := time.Unix(fr.IndexedAt, 0).UTC().Format(time.RFC3339)
		p.IndexedAt = &s
	} else {
		_, base := splitPath(rel)
		if l := langOf(base); l != "" {
			p.Kind = fileKind(rel, l)
		}
	}
	p.LastCommit, p.LastCommitDate = ix.gitLast(rel, hash)
	return p
}
