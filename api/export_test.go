package api

import "time"

// QuickRetries makes c wait a millisecond between the tries of a read,
// for tests whose faults make it retry often: what they check does not
// depend on how long it waits.
func QuickRetries(c *Client) { c.backoff = func(int) time.Duration { return time.Millisecond } }
