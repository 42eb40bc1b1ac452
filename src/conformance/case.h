#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"

namespace tjr::conformance {

/// File names of a case folder (see conformance/README.md).
inline constexpr std::string_view kCaseFile = "case.yaml";
inline constexpr std::string_view kInputDir = "input";
inline constexpr std::string_view kExpectedObjectsFile = "expected.yaml";
inline constexpr std::string_view kExpectedErrorsFile = "expected-errors.txt";

/// The fields of case.yaml.
struct CaseSpec {
  std::string description;  ///< required: what the case shows
  std::string source;       ///< required: the spec section or upstream test it comes from
  std::string target;       ///< required: the registered target that runs it ("merge")
  std::string notes;        ///< where public documentation claims otherwise, caveats
  std::string oracle;       ///< what produced the expectation ("kubectl v1.32.4", "by hand")
  std::vector<std::string> command;  ///< options for the target, one argument each
};

/// Parses case.yaml. `command` may be a list of strings or one string that
/// is split at spaces. Unknown fields are errors, so a misspelt field cannot
/// be silently ignored.
Result<CaseSpec> ParseCaseSpec(std::string_view text, std::string_view source_name);

/// One file of a case's input/ folder.
struct InputFile {
  std::string name;                  ///< "input/object.yaml": relative to the case folder
  std::vector<doc::Node> documents;  ///< in stream order; empty YAML documents are skipped
  std::string text = {};             ///< the file's bytes (targets that edit files)
};

enum class Expectation { kNone, kObjects, kErrors };

/// A case folder, read and parsed.
struct Case {
  std::filesystem::path dir;
  std::string name;  ///< the folder with its parent: "merge/volumes-merge-by-name"
  CaseSpec spec;
  /// `*.yaml`, `*.yml` (YAML streams) and `*.json` (one JSON document) files
  /// of input/, sorted by name; dot files are ignored.
  std::vector<InputFile> inputs;
  /// Input files that could not be parsed. They are the case's output (its
  /// target does not run), so a case can expect a parse error.
  Diagnostics input_errors;
  Expectation expectation = Expectation::kNone;
  std::vector<doc::Node> expected_objects;  ///< from expected.yaml
  /// Non-blank lines of expected-errors.txt, each to be found in some
  /// produced diagnostic.
  std::vector<std::string> expected_errors;
};

/// Reads a case folder. Errors are about the case itself (missing or
/// unparsable case.yaml or expectation, both expectation files present,
/// unexpected files in input/) and are input errors (exit code 2).
Result<Case> LoadCase(const std::filesystem::path& dir);

/// The case folders named by `roots`: a root that holds case.yaml is a case,
/// any other folder stands for every case folder below it (sorted by path).
/// A case named more than once is listed once, where it was first named. A
/// root that does not exist or holds no case is an error.
Result<std::vector<std::filesystem::path>> FindCases(
    const std::vector<std::filesystem::path>& roots);

}  // namespace tjr::conformance
