// Unbuffered ping-pong: N round trips between main and one goroutine.
package main

import (
	"fmt"
	"os"
	"strconv"
)

func main() {
	n, _ := strconv.Atoi(os.Args[1])
	ping, pong := make(chan int64), make(chan int64)
	go func() {
		for j := 0; j < n; j++ {
			pong <- <-ping
		}
	}()
	var got int64
	for i := 0; i < n; i++ {
		ping <- int64(i)
		got = <-pong
	}
	fmt.Println(got)
}
