// box-compile: the compile step of a fleet-in-a-box target, run by a real BuildKit RUN step in the node's
// cgroup. It does what a wheel build does to the outside world, at a scale the box can afford:
//
//   - per compile unit, a sccache lookup over WebDAV the way sccache's opendal client does it (a GET of
//     <endpoint>/<prefix>/a/b/c/<key>; 200 hit, 404 miss); a miss burns the unit's CPU seconds, then writes the
//     entry (PROPFIND the parent, walking up on 404, MKCOL what is missing, one PUT); a hit still burns 5 % of it
//     (sccache preprocesses and hashes to find the key);
//   - with -alloc-mb N, allocates N MiB and writes one byte in every page before compiling, and holds it until it
//     exits: a step whose memory peak is known (the step-usage truth test, test/e2e/harness-usage.test.ts);
//   - writes the wheel: -out-bytes of incompressible bytes seeded by the source revision, so a source change
//     gives a new layer and a rebuild of the same revision the same one.
//
// CPU is burned on one thread until this process's own CPU time (getrusage) reaches the goal, so the wall time
// is set by the node's CPU quota. Keys depend on the target and the unit, not the revision, so a rebuild after a
// source change misses the layer cache but hits sccache. Standard library only.
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"
)

const userAgent = "sccache/0.10.0"

var client = &http.Client{Timeout: 120 * time.Second}

func cpuSeconds() float64 {
	var usage syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &usage); err != nil {
		return 0
	}
	toSeconds := func(tv syscall.Timeval) float64 { return float64(tv.Sec) + float64(tv.Usec)/1e6 }
	return toSeconds(usage.Utime) + toSeconds(usage.Stime)
}

// burn spends `seconds` of CPU time; returns a value so the work cannot be optimised away.
func burn(seconds float64) byte {
	goal := cpuSeconds() + seconds
	sum := sha256.Sum256([]byte("box-compile"))
	for cpuSeconds() < goal {
		for i := 0; i < 2000; i++ {
			sum = sha256.Sum256(sum[:])
		}
	}
	return sum[0]
}

func call(method, url string, body []byte, headers map[string]string) (int, error) {
	request, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	if body == nil {
		request.Body = http.NoBody
	}
	request.Header.Set("User-Agent", userAgent)
	for key, value := range headers {
		request.Header.Set(key, value)
	}
	response, err := client.Do(request)
	if err != nil {
		return 0, err
	}
	_, _ = io.Copy(io.Discard, response.Body)
	response.Body.Close()
	return response.StatusCode, nil
}

type store struct {
	endpoint string   // ends with /
	prefix   []string // path parts of the key prefix
}

func (s store) dir(parts []string) string {
	if len(parts) == 0 {
		return s.endpoint
	}
	return s.endpoint + strings.Join(parts, "/") + "/"
}

func (s store) root() string { return s.dir(s.prefix) }

const propfind = `<?xml version="1.0" encoding="utf-8" ?><D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>`

func (s store) put(relative string, content []byte) error {
	parts := append(append([]string{}, s.prefix...), strings.Split(filepath.Dir(relative), "/")...)
	if filepath.Dir(relative) == "." {
		parts = append([]string{}, s.prefix...)
	}
	existing := len(parts)
	for ; existing >= 0; existing-- {
		status, err := call("PROPFIND", s.dir(parts[:existing]), []byte(propfind),
			map[string]string{"Depth": "0", "Content-Type": "application/xml"})
		if err != nil {
			return err
		}
		if status >= 200 && status < 300 {
			break
		}
		if status != 404 {
			return fmt.Errorf("PROPFIND %s: status %d", s.dir(parts[:existing]), status)
		}
	}
	for depth := max(existing, 0) + 1; depth <= len(parts); depth++ {
		status, err := call("MKCOL", s.dir(parts[:depth]), nil, nil)
		if err != nil {
			return err
		}
		if status != 201 && status != 405 {
			return fmt.Errorf("MKCOL %s: status %d", s.dir(parts[:depth]), status)
		}
	}
	status, err := call("PUT", s.root()+relative, content, nil)
	if err != nil {
		return err
	}
	if status != 200 && status != 201 && status != 204 {
		return fmt.Errorf("PUT %s%s: status %d", s.root(), relative, status)
	}
	return nil
}

func keyPath(key string) string { return fmt.Sprintf("%c/%c/%c/%s", key[0], key[1], key[2], key) }

func main() {
	target := flag.String("target", "", "bake target")
	units := flag.Int("units", 4, "compile units")
	cpu := flag.Float64("cpu-seconds", 1, "CPU seconds of a cold compile (all units)")
	entryBytes := flag.Int("entry-bytes", 8192, "bytes of one sccache entry")
	outBytes := flag.Int64("out-bytes", 0, "bytes of the wheel written to -out")
	out := flag.String("out", "/out", "output directory")
	revisionFile := flag.String("revision-file", "/src/REVISION", "the source revision (seeds the wheel's bytes)")
	allocMB := flag.Int("alloc-mb", 0, "MiB to allocate and touch (every page written once), held until exit")
	flag.Parse()
	if *target == "" || *units < 1 {
		fmt.Fprintln(os.Stderr, "box-compile: -target and -units >= 1 are required")
		os.Exit(2)
	}
	if *allocMB < 0 {
		fmt.Fprintln(os.Stderr, "box-compile: -alloc-mb must be >= 0")
		os.Exit(2)
	}
	// Touched, so the pages are resident (an untouched allocation is only address space, not memory use).
	held := make([]byte, *allocMB<<20)
	for i := 0; i < len(held); i += 4096 {
		held[i] = byte(i)
	}
	revision, _ := os.ReadFile(*revisionFile)
	endpoint := os.Getenv("SCCACHE_WEBDAV_ENDPOINT")
	prefix := os.Getenv("SCCACHE_WEBDAV_KEY_PREFIX")
	unitCPU := *cpu / float64(*units)
	hits, misses := 0, 0
	var sink byte
	if endpoint == "" || prefix == "" {
		sink ^= burn(*cpu)
		misses = *units
	} else {
		s := store{endpoint: strings.TrimRight(endpoint, "/") + "/", prefix: strings.FieldsFunc(prefix, func(r rune) bool { return r == '/' })}
		if _, err := call("GET", s.root()+".sccache_check", nil, nil); err != nil {
			fmt.Fprintln(os.Stderr, "box-compile: sccache check:", err)
			os.Exit(1)
		}
		if err := s.put(".sccache_check", []byte("Hello, World!")); err != nil {
			fmt.Fprintln(os.Stderr, "box-compile: sccache check:", err)
			os.Exit(1)
		}
		for unit := 0; unit < *units; unit++ {
			digest := sha256.Sum256([]byte(fmt.Sprintf("%s/unit-%d", *target, unit)))
			key := hex.EncodeToString(digest[:])
			status, err := call("GET", s.root()+keyPath(key), nil, nil)
			if err != nil {
				fmt.Fprintln(os.Stderr, "box-compile: sccache GET:", err)
				os.Exit(1)
			}
			if status == 200 {
				hits++
				sink ^= burn(unitCPU * 0.05)
				continue
			}
			misses++
			sink ^= burn(unitCPU)
			entry := bytes.Repeat(digest[:], *entryBytes/len(digest)+1)[:*entryBytes]
			if err := s.put(keyPath(key), entry); err != nil {
				fmt.Fprintln(os.Stderr, "box-compile: sccache PUT:", err)
				os.Exit(1)
			}
		}
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "box-compile:", err)
		os.Exit(1)
	}
	if *outBytes > 0 {
		seed := sha256.Sum256([]byte(*target + "/" + strings.TrimSpace(string(revision))))
		random := rand.New(rand.NewSource(int64(seed[0])<<56 | int64(seed[1])<<48 | int64(seed[2])<<40 | int64(seed[3])<<32 | int64(seed[4])<<24))
		file, err := os.Create(filepath.Join(*out, *target+".whl"))
		if err == nil {
			_, err = io.CopyN(file, random, *outBytes)
			if closeErr := file.Close(); err == nil {
				err = closeErr
			}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "box-compile: writing the wheel:", err)
			os.Exit(1)
		}
	}
	// The line sccache's --show-stats summary gives, for the build log, and as /out/<target>.txt: the small file
	// dependent targets copy (COPY --from=<target>), as a wheel build copies its base's build info.
	summary := fmt.Sprintf("box-compile %s: %d units, %d sccache hits, %d misses, %.2f CPU s, %d MiB held (%d)\n", *target, *units, hits, misses, cpuSeconds(), *allocMB, sink)
	fmt.Print(summary)
	if err := os.WriteFile(filepath.Join(*out, *target+".txt"), []byte(summary), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "box-compile:", err)
		os.Exit(1)
	}
	runtime.KeepAlive(held)
}
