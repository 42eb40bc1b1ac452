#pragma once

#include <string>
#include <string_view>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "flyte/config.h"
#include "flyte/task.h"

// Reading flyteidl messages in their JSON/YAML form: field lookup under both
// names, typed fields with located errors, resources in either form.
namespace tjr::flyte {

/// The field under its lowerCamelCase JSON name or its proto name (as
/// protobuf JSON parsers accept both); nullptr when absent or null.
const doc::Node* Get(const doc::Node& object, std::string_view camel, std::string_view snake = {});

/// encoding/json's case-insensitive field match (for untagged Go structs).
const doc::Node* GetFolded(const doc::Node& object, std::string_view name);

/// An error at `at` with a field path.
Diagnostic Error(const doc::Node& at, std::string path, std::string message);

/// A string field ("" when absent); an error when it is not a string.
Result<std::string> String(const doc::Node& object, std::string_view camel, std::string_view snake,
                           const std::string& path);

/// Adds a map of strings to `out`; an error when it is of another shape.
Status StringMapOf(const doc::Node* value, const std::string& path, StringMap* out);

/// Resources in flyteidl's form (lists of {name, value}, ToK8sResourceList:
/// zero quantities dropped, GPU as nvidia.com/gpu) or Kubernetes' form, as
/// a ResourceRequirements in Go form.
Result<doc::Node> Resources(const doc::Node* resources, const std::string& path);

/// The `execution` field of a task document (docs/manual.md "Flyte").
Status ParseExecution(const doc::Node& execution, Execution* out);

}  // namespace tjr::flyte
