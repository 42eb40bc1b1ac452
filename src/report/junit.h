#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tjr::report {

/// One test case of a JUnit report.
struct JunitCase {
  enum class Status { kPassed, kFailed, kError, kSkipped };
  std::string name;       ///< "merge/volumes-merge-by-name"
  std::string classname;  ///< "conformance.merge"
  Status status = Status::kPassed;
  std::string message;    ///< one line: why it failed
  std::string details;    ///< the diff or the diagnostics, any number of lines
};

/// Escapes `text` for XML 1.0 character data: the five markup characters
/// become entities, carriage return becomes `&#13;` (parsers would turn it
/// into a newline), and what XML 1.0 cannot carry at all (control characters
/// other than tab, newline and carriage return, U+FFFE, U+FFFF, surrogates,
/// bytes that are not UTF-8) becomes U+FFFD.
std::string XmlEscape(std::string_view text);

/// As XmlEscape, and also tab and newline as character references, which
/// attribute-value normalisation would otherwise turn into spaces.
std::string XmlEscapeAttribute(std::string_view text);

/// A JUnit XML document (the `testsuites` layout that Jenkins, GitLab and
/// GitHub test reporters read) with one `testsuite` named `suite`.
std::string WriteJunit(std::string_view suite, const std::vector<JunitCase>& cases);

}  // namespace tjr::report
