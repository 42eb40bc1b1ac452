#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"

// Go's regexp (RE2 syntax, leftmost-first matching), in time linear in the
// text: a Pike VM (a Thompson NFA simulation carrying submatches) over the
// compiled pattern, with no recursion on the text or the pattern (the
// parser's nesting is bounded at Go's own limit of 1000). This is what the
// API server runs for a CRD's CEL `matches()` (cel-go calls
// regexp.MatchString) and for Go-side name checks; std::regex recursed once
// per character and overflowed the stack on a 40 KB name.
//
// Supported: everything regexp.Compile accepts (syntax.Perl flags) except
// Unicode classes (\pL, \p{Greek}, \PN), which are refused with an error
// that says so. Case folding ((?i)) covers ASCII (with KELVIN SIGN and LONG
// S), Latin-1 and Latin Extended-A; other letters fold only to themselves.
// Text is read as Go reads a string: UTF-8, each invalid byte one U+FFFD.
namespace tjr::gocompat {

class Regexp {
 public:
  /// Compiles `pattern` (regexp.Compile); the error's message is Go's
  /// (e.g. "error parsing regexp: missing closing ): `(a`").
  static Result<Regexp> Compile(std::string_view pattern);

  /// regexp.MatchString: whether the pattern matches anywhere in `text`
  /// (unanchored, as CEL's matches() uses it). Thread-safe; O(pattern x text).
  bool Match(std::string_view text) const;

  /// regexp.FindStringSubmatchIndex: the leftmost-first match, as byte
  /// offsets [begin, end) of the whole match (index 0) and of each capture
  /// group (-1, -1 when it did not take part); nothing when no match.
  std::optional<std::vector<std::ptrdiff_t>> FindSubmatchIndex(std::string_view text) const;

  /// The pattern as given.
  const std::string& pattern() const;
  /// Capture groups, not counting the whole match.
  int captures() const;

  /// Work done by the last call on this thread, for tests that bound it.
  static std::size_t LastSteps();

  struct Program;

 private:
  explicit Regexp(std::shared_ptr<const Program> program) : program_(std::move(program)) {}
  std::shared_ptr<const Program> program_;  // immutable, shared by copies
};

}  // namespace tjr::gocompat
