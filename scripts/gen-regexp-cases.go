// Regenerates src/gocompat/testdata/regexp_cases.txt, the expected answers
// of Go's regexp package that gocompat::Regexp's tests compare with:
//
//	go run scripts/gen-regexp-cases.go > src/gocompat/testdata/regexp_cases.txt
//
// Each case is a comment line (the pattern and text, Go-quoted) and a data
// line: hex(pattern) TAB hex(text) TAB answer, where the answer is
// "error <message>", "nomatch" or "match i0,i1,..." (FindStringSubmatchIndex).
// Curated cases cover the syntax; generated ones (fixed seed) cover
// combinations. Built with go1.19 (Debian bookworm's golang-go); `(?<name>`
// needs go1.22, so it is left to the curated C++ tests.
package main

import (
	"encoding/hex"
	"fmt"
	"math/rand"
	"regexp"
	"strings"
)

var curated = []struct{ pattern string; texts []string }{
	{`^[a-z]([-a-z0-9]*[a-z0-9])?$`, []string{"", "a", "abc-def", "-a", "a-", "A", "a.b", "x9", strings.Repeat("a", 64)}},
	{`^[A-Za-z][A-Za-z0-9+.-]*://.+$`, []string{"s3://bucket", "hf://org/model", "://x", "1s3://x", "s3://", "s3:/x", "pvc://a\nb"}},
	{`a`, []string{"", "a", "ba", "bab", "b"}},
	{`a*`, []string{"", "b", "aaa", "baaa"}},
	{`a*?`, []string{"aaa"}},
	{`a+?b`, []string{"aaab"}},
	{`(a*)+`, []string{"b", "aab"}},
	{`(a*)*`, []string{"b", "aab"}},
	{`(a|ab)(c|bcd)(d*)`, []string{"abcd"}},
	{`(a+)(b+)?`, []string{"aab", "aa"}},
	{`x*y+$`, []string{"xxyy", "xxyyz"}},
	{`^$`, []string{"", "\n", "a"}},
	{`$`, []string{"", "a\n"}},
	{`a$`, []string{"a\n", "a"}},
	{`(?m)^b$`, []string{"a\nb\nc", "ab"}},
	{`(?m)a$`, []string{"a\nb"}},
	{`(?s).`, []string{"\n"}},
	{`.`, []string{"\n", "é", "\xff"}},
	{`\b\w+\b`, []string{"  hello world", "-", ""}},
	{`\Bb`, []string{"ab", "b"}},
	{`\d+\s\D\S\W\w`, []string{"12 x!@a", "12 x y_"}},
	{`[\d\s]+`, []string{"a1 2b"}},
	{`[^a]`, []string{"a", "\n", "b"}},
	{`[^\n]`, []string{"\n"}},
	{`[]a]`, []string{"]", "a", "b"}},
	{`[^]a]`, []string{"]", "b"}},
	{`[a-]`, []string{"-", "b"}},
	{`[-a]`, []string{"-"}},
	{`[[:alpha:]]+`, []string{"ab1"}},
	{`[[:^alpha:]]+`, []string{"ab12"}},
	{`[[:word:][:space:]]+`, []string{"a_ b-"}},
	{`(?i)k`, []string{"K", "k", "\u212a"}},
	{`(?i)[a-c]+`, []string{"ABC", "xAbC"}},
	{`(?i)straße`, []string{"STRASSE", "STRAßE", "straße"}},
	{`(?i)é`, []string{"É"}},
	{`(?i:A)a`, []string{"aa", "aA", "AA"}},
	{`a(?i)b|c`, []string{"aB", "C"}},
	{`(?U)a+`, []string{"aaa"}},
	{`(?U)a+?`, []string{"aaa"}},
	{`a{2}`, []string{"a", "aa", "aaa"}},
	{`a{2,}`, []string{"a", "aaaa"}},
	{`a{2,3}`, []string{"aaaa"}},
	{`a{2,3}?`, []string{"aaaa"}},
	{`a{0}`, []string{"a"}},
	{`a{,2}`, []string{"a{,2}", "aa"}},
	{`a{`, []string{"a{"}},
	{`a{1`, []string{"a{1"}},
	{`{`, []string{"{"}},
	{`x{1001}`, nil},
	{`x{2,1}`, nil},
	{`(x{10}){200}`, nil},
	{`(?:x{10}){100}`, []string{strings.Repeat("x", 999), strings.Repeat("x", 1000)}},
	{`\Qa.b\E+`, []string{"a.bbb", "axb"}},
	{`\Qa.b`, []string{"a.b"}},
	{`\x41\x{42}\101\0\a\f\t\n\r\v`, []string{"AB A\x00\a\f\t\n\r\v", "ABA\x00\a\f\t\n\r\v"}},
	{`\.\*\_`, []string{".*_"}},
	{`(?P<first>a)(?P<second>b)?`, []string{"ab", "a"}},
	{`(a)|b`, []string{"b"}},
	{`(a|b)*c`, []string{"abac"}},
	{`(?:a|(b))+`, []string{"ab", "ba"}},
	{`a|`, []string{"b"}},
	{`|a`, []string{"a"}},
	{`()`, []string{""}},
	{`\A\z`, []string{"", "a"}},
	{`[\x{10FFFF}-\x{10FFFF}]`, []string{"\U0010FFFF"}},
	{`\p{Greek}`, nil},
	{`[^\x00-\x{10FFFF}]`, []string{"a", ""}},
	// Errors.
	{`(`, nil}, {`)`, nil}, {`a)`, nil}, {`(a`, nil}, {`[a`, nil}, {`[`, nil}, {`[]`, nil}, {`[^]`, nil},
	{`*`, nil}, {`a**`, nil}, {`a*+`, nil}, {`a*?*`, nil}, {`+a`, nil}, {`a|*`, nil}, {`(*)`, nil},
	{`\`, nil}, {`a\`, nil}, {`\1`, nil}, {`\8`, nil}, {`\x`, nil}, {`\xg0`, nil}, {`\x{}`, nil}, {`\x{110000}`, nil},
	{`\C`, nil}, {`\Z`, nil}, {`\q`, nil}, {`[z-a]`, nil}, {`[[:foo:]]`, nil}, {`(?P<>a)`, nil}, {`(?P<a-b>x)`, nil},
	{`(?P<name`, nil}, {`(?i`, nil}, {`(?x)`, nil}, {`(?-)`, nil}, {`(?i-)`, nil}, {`(?=a)`, nil}, {`(?!a)`, nil},
	{`(?P=a)`, nil}, {`a{1001,}`, nil}, {"\xff", nil}, {"[\xff]", nil}, {`(?i)(?-i)a`, []string{"A", "a"}},
	{`(?:)`, []string{"", "a"}}, {`(?)`, []string{""}}, {`(?i:)`, []string{""}},
	{`x{0,1001}`, nil}, {`(?P<n>a)(?P<n>b)`, nil},
}

// Small random patterns over a few atoms, for the matcher's semantics.
func generated(r *rand.Rand) []string {
	atoms := []string{"a", "b", ".", "[ab]", "[^a]", `\b`, "^", "$", "(a|b)", "(a*)", "(?:ab)", "x?", "(a|)", `\w`}
	ops := []string{"", "", "*", "+", "?", "*?", "+?", "??", "{2}", "{1,2}", "{0,2}?"}
	var out []string
	for i := 0; i < 400; i++ {
		var b strings.Builder
		n := 1 + r.Intn(4)
		for j := 0; j < n; j++ {
			if j > 0 && r.Intn(6) == 0 {
				b.WriteString("|")
			}
			atom := atoms[r.Intn(len(atoms))]
			b.WriteString(atom)
			if atom != "^" && atom != "$" && atom != `\b` {
				b.WriteString(ops[r.Intn(len(ops))])
			}
		}
		out = append(out, b.String())
	}
	return out
}

func answer(pattern, text string) string {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return "error " + err.Error()
	}
	m := re.FindStringSubmatchIndex(text)
	if m == nil {
		return "nomatch"
	}
	parts := make([]string, len(m))
	for i, v := range m {
		parts[i] = fmt.Sprint(v)
	}
	return "match " + strings.Join(parts, ",")
}

func emit(pattern, text string) {
	fmt.Printf("# %q %q\n%s\t%s\t%s\n", pattern, text, hex.EncodeToString([]byte(pattern)),
		hex.EncodeToString([]byte(text)), answer(pattern, text))
}

func main() {
	fmt.Println("# Go regexp answers for gocompat::Regexp (scripts/gen-regexp-cases.go); do not edit.")
	for _, c := range curated {
		texts := c.texts
		if texts == nil {
			texts = []string{""}
		}
		for _, t := range texts {
			emit(c.pattern, t)
		}
	}
	r := rand.New(rand.NewSource(14))
	texts := []string{"", "a", "b", "ab", "ba", "aab", "abb", "abab", "bbaa", "a b", "xab", "aaaa"}
	for _, p := range generated(r) {
		for i := 0; i < 3; i++ {
			emit(p, texts[r.Intn(len(texts))])
		}
	}
}
