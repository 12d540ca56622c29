package clock

import (
	"context"
	"testing"
	"time"
)

var start = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

func TestFakeFiresWhenMoved(t *testing.T) {
	f := NewFake(start)
	soon, later := f.After(time.Minute), f.After(time.Hour)
	f.Advance(59 * time.Second)
	select {
	case <-soon:
		t.Fatal("a minute's wait fired after 59s")
	default:
	}
	f.Advance(time.Second)
	if got := <-soon; !got.Equal(start.Add(time.Minute)) {
		t.Fatalf("fired with %v", got)
	}
	if f.Waiters() != 1 {
		t.Fatalf("%d waiters, want the hour's", f.Waiters())
	}
	f.Set(start) // backwards: ignored
	if !f.Now().Equal(start.Add(time.Minute)) {
		t.Fatalf("Set moved the clock back to %v", f.Now())
	}
	f.Set(start.Add(2 * time.Hour))
	<-later
	if f.Waiters() != 0 {
		t.Fatal("a fired wait is still pending")
	}
}

func TestBlockUntilAndSleep(t *testing.T) {
	f := NewFake(start)
	done := make(chan bool)
	go func() { done <- Sleep(context.Background(), f, time.Second) }()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := f.BlockUntil(ctx, 1); err != nil {
		t.Fatal(err)
	}
	f.Advance(time.Second)
	if !<-done {
		t.Fatal("Sleep says the second did not pass")
	}

	cctx, stop := context.WithCancel(context.Background())
	go func() { done <- Sleep(cctx, f, time.Second) }()
	if err := f.BlockUntil(ctx, 1); err != nil {
		t.Fatal(err)
	}
	stop()
	if <-done {
		t.Fatal("Sleep of a cancelled context says the second passed")
	}
}
