#pragma once

#include <string>

#include "explain/explain.h"

// The three forms of an explanation `tjrender explain` prints, and the
// chain of one field (--field).
namespace tjr::explain {

struct YamlFormatOptions {
  /// ANSI colours by layer kind (stdout is a terminal and NO_COLOR unset).
  bool color = false;
};

/// The rendered objects as `render` prints them (a "---" line between
/// objects), each line that holds a value followed by a comment naming its
/// source: `image: pytorch:2.5  # runtimePatches[kueue.x-k8s.io/manager] tj.yaml:31:17`.
/// Without the comments the text reads back as the same objects.
std::string FormatYaml(const Explanation& explanation, const YamlFormatOptions& options = {});

/// Machine-readable provenance (docs/manual.md, "explain --format json").
std::string FormatJson(const Explanation& explanation);

/// One self-contained HTML page: no network, no external script or font.
std::string FormatHtml(const Explanation& explanation);

/// The chains of `fields` (one object's fields that a --field query
/// selected), overridden values included, for a terminal.
std::string FormatChains(const Explanation& explanation, const ObjectExplanation& object,
                         const std::vector<const Field*>& fields, const YamlFormatOptions& options = {});

/// "JobSet ml/llama": a rendered object's kind and namespace/name, as the
/// chains and the conformance target title it ("object" without a kind).
std::string ObjectTitle(const doc::Node& object);

/// "runtimePatches[kueue.x-k8s.io/manager] tj.yaml:31:17": who wrote a
/// step, and where, as the YAML comments and the chains say it.
std::string DescribeStep(const Explanation& explanation, const Step& step);

}  // namespace tjr::explain
