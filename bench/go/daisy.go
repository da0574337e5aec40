// Go's daisy chain of N goroutines.
package main

import (
	"fmt"
	"os"
	"strconv"
)

func whisper(left, right chan int64) {
	left <- 1 + <-right
}

func main() {
	n, _ := strconv.Atoi(os.Args[1])
	leftmost := make(chan int64)
	left := leftmost
	for i := 0; i < n; i++ {
		right := make(chan int64)
		go whisper(left, right)
		left = right
	}
	left <- 1
	fmt.Println(<-leftmost)
}
