#pragma once

#include <ostream>
#include <string>
#include <vector>

// Merge cases kept as data (src/smp/testdata/*.cases), so that the same file
// drives the unit tests and the kubectl cross-check
// (testdata/verify_with_kubectl.py). Format:
//
//   === description
//   root: Pod                  (optional; Pod, PodTemplateSpec or MergeItem)
//   original: {flow YAML}
//   patch: {flow YAML}
//   expected: {flow YAML}      or   error: exact upstream message ("\n" escapes)
//   path: spec.containers[0]   (optional, with error: the diagnostic's path)
//   panic: runtime error: ...  (instead of expected/error: upstream panics)
//   kubectl: verified | skip REASON
//   source: where the case comes from
//   sort: merge-lists          (feed original, patch and expected through
//                               upstream's sortMergeListsByName first)
//
// A value continues on the following lines that start with whitespace;
// lines starting with '#' are comments.
namespace tjr::smp::testing {

struct MergeCase {
  std::string file;
  int line = 0;
  std::string description;
  std::string root = "Pod";
  std::string original;
  std::string patch;
  std::string expected;
  std::string error;
  std::string path;
  std::string panic;
  std::string kubectl;
  std::string source;
  std::string sort;
};

/// For gtest messages: "FILE:LINE: description".
void PrintTo(const MergeCase& merge_case, std::ostream* out);

/// Reads src/smp/testdata/NAME from the source tree (TJRENDER_SOURCE_ROOT);
/// aborts with a message when the file is missing or malformed.
std::vector<MergeCase> LoadMergeCases(const std::string& name);

}  // namespace tjr::smp::testing
