package journal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"allot/api"
	"allot/internal/atomicfile"
)

// The allocations the user follows live in a small file beside the
// journal, not in it: the journal is read by its tail, and a follow made
// a year ago must not fall out of it.
const (
	// FollowsName is the file's name inside the state directory.
	FollowsName = "follows.json"
	// MaxFollowed bounds the allocations followed on one deployment:
	// each is read from the service and the chain on every check.
	MaxFollowed = 100
	// maxFollowsFile and maxFollowsDeployments bound what is read.
	maxFollowsFile        = 1 << 20
	maxFollowsDeployments = 64
)

// ErrTooManyFollowed: a deployment already has MaxFollowed allocations
// followed.
var ErrTooManyFollowed = fmt.Errorf("%d allocations are followed already: unfollow one first", MaxFollowed)

type followsFile struct {
	Version     int             `json:"version"`
	Deployments []followedOnDep `json:"deployments"`
}

type followedOnDep struct {
	Profile string   `json:"profile,omitempty"`
	BaseURL string   `json:"baseUrl"`
	ChainID uint64   `json:"chainId"`
	IDs     []string `json:"ids"`
}

func (f followedOnDep) of(d Deployment) bool {
	return f.BaseURL == normalURL(d.BaseURL) && f.ChainID == d.ChainID
}

func (j *Journal) followsPath() string { return filepath.Join(filepath.Dir(j.path), FollowsName) }

// Followed are the allocations followed on d, in the order they were
// followed. A file that cannot be read follows none, and the error says
// why; ids in it that are not allocation ids are skipped.
func (j *Journal) Followed(d Deployment) ([]string, error) {
	if j == nil {
		return nil, nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	f, err := j.readFollows()
	if err != nil {
		return nil, err
	}
	for _, dep := range f.Deployments {
		if dep.of(d) {
			return dep.IDs, nil
		}
	}
	return nil, nil
}

// SetFollowed follows id on d (on) or stops following it. A file that
// cannot be read is set aside (follows.json.corrupt) and a new one
// started, so that a damaged file never stops the user from following.
func (j *Journal) SetFollowed(d Deployment, id string, on bool) error {
	if err := api.CheckUUID("allocation id", id); err != nil {
		return err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	f, err := j.readFollows()
	if err != nil {
		if rerr := os.Rename(j.followsPath(), j.followsPath()+".corrupt"); rerr != nil {
			return fmt.Errorf("follows: %v, and it could not be set aside: %w", err, rerr)
		}
		f = followsFile{}
	}
	i := slices.IndexFunc(f.Deployments, func(dep followedOnDep) bool { return dep.of(d) })
	if i < 0 {
		if !on {
			return nil
		}
		f.Deployments = append(f.Deployments, followedOnDep{Profile: d.Profile, BaseURL: normalURL(d.BaseURL), ChainID: d.ChainID})
		i = len(f.Deployments) - 1
	}
	dep := &f.Deployments[i]
	has := slices.Contains(dep.IDs, id)
	switch {
	case on && has, !on && !has:
		return nil
	case on && len(dep.IDs) >= MaxFollowed:
		return ErrTooManyFollowed
	case on:
		dep.IDs = append(dep.IDs, id)
	default:
		dep.IDs = slices.DeleteFunc(dep.IDs, func(s string) bool { return s == id })
	}
	if len(f.Deployments) > maxFollowsDeployments {
		f.Deployments = f.Deployments[len(f.Deployments)-maxFollowsDeployments:]
	}
	return j.writeFollows(f)
}

// readFollows reads the file; none is an empty list.
func (j *Journal) readFollows() (followsFile, error) {
	file, err := os.Open(j.followsPath())
	if errors.Is(err, os.ErrNotExist) {
		return followsFile{}, nil
	}
	if err != nil {
		return followsFile{}, fmt.Errorf("follows: %w", err)
	}
	defer file.Close()
	data, err := io.ReadAll(io.LimitReader(file, maxFollowsFile+1))
	if err != nil {
		return followsFile{}, fmt.Errorf("follows: %w", err)
	}
	if len(data) > maxFollowsFile {
		return followsFile{}, fmt.Errorf("follows: %s is larger than %d bytes", j.followsPath(), maxFollowsFile)
	}
	var f followsFile
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&f); err != nil {
		return followsFile{}, fmt.Errorf("follows: %s does not read as allot's list: %v", j.followsPath(), err)
	}
	f.Deployments = f.Deployments[:min(len(f.Deployments), maxFollowsDeployments)]
	for i := range f.Deployments {
		seen := map[string]bool{}
		ids := slices.DeleteFunc(f.Deployments[i].IDs, func(id string) bool {
			drop := seen[id] || api.CheckUUID("id", id) != nil
			seen[id] = true
			return drop
		})
		f.Deployments[i].IDs = ids[:min(len(ids), MaxFollowed)]
	}
	return f, nil
}

// writeFollows replaces the file whole (a new file renamed over it), so
// that a crash leaves the old list or the new one, never half of one.
func (j *Journal) writeFollows(f followsFile) error {
	f.Version = 1
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return fmt.Errorf("follows: %w", err)
	}
	if err := atomicfile.Write(j.followsPath(), append(data, '\n')); err != nil {
		return fmt.Errorf("follows: %w", err)
	}
	return nil
}
