// Buffered throughput: N values through a capacity-100 channel, summed.
package main

import (
	"fmt"
	"os"
	"strconv"
)

func main() {
	n, _ := strconv.Atoi(os.Args[1])
	ch := make(chan int64, 100)
	go func() {
		for j := 0; j < n; j++ {
			ch <- int64(j)
		}
	}()
	var total int64
	for i := 0; i < n; i++ {
		total += <-ch
	}
	fmt.Println(total)
}
