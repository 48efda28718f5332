// gosig: a Go program whose runtime handles signals, for signal frames in
// chains (tests/integration/signal_frames.sh): each round sends itself 50
// SIGUSR1 (caught by os/signal, so the runtime's handler runs and returns
// through runtime.sigreturn) and spins.  Built by the test (go build);
// argv[1]: rounds (20,000: about 1 s of CPU).
package main

import (
	"os"
	"os/signal"
	"strconv"
	"syscall"
)

var sink int

func spin() {
	for i := 0; i < 1000; i++ {
		sink += i * i
	}
}

func main() {
	rounds, _ := strconv.Atoi(os.Args[1])
	c := make(chan os.Signal, 1024)
	signal.Notify(c, syscall.SIGUSR1)
	go func() {
		for range c {
		}
	}()
	pid := syscall.Getpid()
	for r := 0; r < rounds; r++ {
		for j := 0; j < 50; j++ {
			syscall.Kill(pid, syscall.SIGUSR1)
		}
		spin()
	}
}
