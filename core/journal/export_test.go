package journal

// For the benchmarks, in package journal_test to share journaltest.
var WholeFileTransactions = wholeFileTransactions

// Reindex builds j's index anew, whole.
func Reindex(j *Journal) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if err := j.rebuild(); err != nil {
		return err
	}
	_, err := j.current()
	return err
}
