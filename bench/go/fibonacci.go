// The Go tour's select Fibonacci: a goroutine takes N values, then quits.
package main

import (
	"fmt"
	"os"
	"strconv"
)

func main() {
	n, _ := strconv.Atoi(os.Args[1])
	c, quit := make(chan int64), make(chan int64)
	go func() {
		j := int64(0)
		for ; j < int64(n); j++ {
			<-c
		}
		quit <- j
	}()
	x, y := int64(0), int64(1)
	for {
		select {
		case c <- x:
			x, y = y, x+y
		case q := <-quit:
			fmt.Println(q)
			return
		}
	}
}
