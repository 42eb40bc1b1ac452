#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostic.h"
#include "doc/node.h"
#include "migrate/plan.h"

// `tjrender migrate`'s file rewriting: TrainJobs' podTemplateOverrides and
// spec.labels/annotations become spec.runtimePatches, as a text splice that
// leaves every other byte of the file as it was.
namespace tjr::migrate {

struct RewriteOptions {
  /// The first RuntimePatch's manager (later ones get "-2", "-3", ...).
  std::string manager = kDefaultManager;
  Shape shape = Shape::kRuntimePatches;
};

/// One TrainJob of a file.
struct TrainJobMigration {
  std::string namespace_;  ///< as written (may be empty)
  std::string name;
  Location location;        ///< of the document
  bool changed = false;     ///< it had v2.1 fields and was rewritten
  bool failed = false;      ///< it had v2.1 fields and could not be migrated (see errors)
  doc::Node before;         ///< the document as read
  doc::Node after;          ///< as it reads after the rewrite (== before when unchanged)
};

struct FileRewrite {
  /// The file's new bytes; equal to the input when nothing changed.
  std::string text;
  /// Every document of the file as read, and as the new text reads.
  std::vector<doc::Node> before;
  std::vector<doc::Node> after;
  /// Every TrainJob document (trainer.kubeflow.org/v1alpha1 TrainJob), in
  /// file order.
  std::vector<TrainJobMigration> trainjobs;
  /// Why some TrainJobs stay unchanged: a field with no place in
  /// runtimePatches (file:line:col and field path), or a rewrite that would
  /// not read back as planned. These are input errors (exit 2).
  Diagnostics errors;
};

/// Rewrites one file. An error return means the file cannot be read as YAML
/// at all; per-TrainJob problems are in FileRewrite::errors.
Result<FileRewrite> RewriteFile(std::string_view text, std::string_view source_name,
                                const RewriteOptions& options = {});

}  // namespace tjr::migrate
