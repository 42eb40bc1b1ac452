#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"

namespace tjr::schema {

/// Reads the members of one JSON object of a policy document strictly: a
/// member of the wrong JSON type, a missing required member, or a member
/// nobody asked for is an error. Accessors return empty values after an
/// error; Finish() reports the first one. Keys are kept as views until
/// Finish(): pass keys that outlive the object (string literals).
class PolicyObject {
 public:
  /// `what` names the object in messages ("type k8s.io/api/core/v1.Pod").
  PolicyObject(const doc::Node& node, std::string what);

  std::string String(std::string_view key, bool required = true);
  /// Optional; absent means false.
  bool Bool(std::string_view key);
  /// Optional list of strings; absent means empty.
  std::vector<std::string> Strings(std::string_view key);
  /// A member of JSON type `kind`, or nullptr.
  const doc::Node* Child(std::string_view key, doc::Kind kind, bool required = true);
  /// Accepts an informational member (any value) that the loader does not use.
  void Allow(std::string_view key);

  Status Finish();

 private:
  const doc::Node* Take(std::string_view key, bool required);
  void Fail(const Location& at, std::string message);

  const doc::Node node_;  // a handle (shared, not copied): a temporary may be passed
  std::string what_;
  std::vector<std::string_view> taken_;  // a schema load asks for ~20,000 members
  std::optional<Diagnostic> error_;
};

/// "NAME: REPO TAG (COMMIT12), ...; GENERATOR" from a policy's provenance block.
Result<std::string> SummarizeProvenance(std::string_view name, const doc::Node& provenance);

}  // namespace tjr::schema
