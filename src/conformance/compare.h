#pragma once

#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"

namespace tjr::conformance {

/// Compares produced objects with expected ones, matched by
/// apiVersion/kind/namespace/name and compared as data (doc::Node
/// equality: maps unordered, lists ordered, kinds exact). Returns "" when
/// they match; otherwise a report naming every missing, unexpected,
/// duplicated or different object, each difference with its first differing
/// field and a unified diff of the two objects' canonical YAML.
std::string CompareObjects(const std::vector<doc::Node>& expected,
                           const std::vector<doc::Node>& actual);

/// Where two trees first differ, in document order of `expected`:
/// "spec.containers[0].env[1].value: expected string \"1\", got int 1".
/// Empty when they are equal.
std::string FirstDifference(const doc::Node& expected, const doc::Node& actual);

/// The lines of `expected` that are not a substring of any diagnostic's
/// text (Diagnostic::ToString), in their order.
std::vector<std::string> MissingErrors(const std::vector<std::string>& expected,
                                       const Diagnostics& produced);

/// The errors (severity error) in `produced` that no line of `expected`
/// occurs in, as printed: a case lists every error its command reports,
/// so a new error cannot hide behind the expected ones. Warnings and notes
/// need not be listed.
std::vector<std::string> UnlistedErrors(const std::vector<std::string>& expected, const Diagnostics& produced);

/// `objects` in apiVersion/kind/namespace/name order (stable for equal ids).
std::vector<doc::Node> SortedById(std::vector<doc::Node> objects);

}  // namespace tjr::conformance
