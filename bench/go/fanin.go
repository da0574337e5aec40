// Select fan-in: two producers send N/2 values each; main selects over both.
package main

import (
	"fmt"
	"os"
	"strconv"
)

func producer(ch chan int64, half int) {
	for j := 0; j < half; j++ {
		ch <- int64(j)
	}
}

func main() {
	half, _ := strconv.Atoi(os.Args[1])
	a, b := make(chan int64), make(chan int64)
	go producer(a, half)
	go producer(b, half)
	fromA, fromB := 0, 0
	for i := 0; i < 2*half; i++ {
		select {
		case <-a:
			fromA++
		case <-b:
			fromB++
		}
	}
	fmt.Println(fromA + fromB)
}
