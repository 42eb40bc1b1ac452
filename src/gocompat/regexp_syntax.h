#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"

// The parser of gocompat::Regexp: Go's regexp/syntax with the flags
// regexp.Compile uses (syntax.Perl), into a small tree. See regexp.h for
// what is supported.
namespace tjr::gocompat::regexp_syntax {

/// An inclusive range of code points.
struct RuneRange {
  char32_t lo = 0;
  char32_t hi = 0;
};

enum class Op {
  kEmpty,           ///< matches the empty string
  kNoMatch,         ///< matches nothing (an empty class)
  kClass,           ///< one code point in `ranges` (a literal is a one-rune class)
  kAnyChar,         ///< any code point
  kAnyCharNotNl,    ///< any code point but '\n'
  kBeginLine,       ///< (?m)^
  kEndLine,         ///< (?m)$
  kBeginText,       ///< ^, \A
  kEndText,         ///< $, \z
  kWordBoundary,    ///< \b (ASCII word characters)
  kNoWordBoundary,  ///< \B
  kCapture,         ///< (sub), `cap` its index
  kRepeat,          ///< sub{min,max}; max -1 is unbounded (*, + and ? too)
  kConcat,
  kAlternate,
};

struct Node {
  Op op = Op::kEmpty;
  std::vector<RuneRange> ranges;  ///< kClass: sorted, disjoint, not adjacent
  int min = 0;
  int max = 0;
  bool greedy = true;
  int cap = 0;
  std::vector<Node> subs;
};

struct Parsed {
  Node root;
  int captures = 0;                ///< capture groups, not counting the whole match
  std::vector<std::string> names;  ///< per capture group (index - 1), "" when unnamed
};

/// The most code points a kClass may hold.
inline constexpr char32_t kMaxRune = 0x10FFFF;

/// Parses `pattern`; the error message is Go's ("error parsing regexp:
/// missing closing ): `(a`"), or says what tjrender does not support.
Result<Parsed> Parse(std::string_view pattern);

}  // namespace tjr::gocompat::regexp_syntax
